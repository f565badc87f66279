import { getControllerMeta, setControllerMeta, type ControllerOptions } from '../metadata';
import { isStringArray, misuse } from './targets';

/**
 * Marks a class as a controller: every route method inside is served under `prefix`. The class
 * is turned into ordinary routes by `app.registerControllers()` when the app starts.
 *
 * @example
 * @Controller('/users', { tags: ['users'], name: 'users', middleware: [audit] })
 * class UserController {
 *   @Get('/{id:int}', { name: 'get' })          // GET /users/{id:int}, urlFor('users.get', { id })
 *   async getUser(@Param('id') id: number) { ... }
 * }
 */
export function Controller(prefix = '', options: ControllerOptions = {}): ClassDecorator {
  if (typeof prefix !== 'string') throw misuse('@Controller(prefix, options): prefix must be a string such as \'/users\'.');
  if (options === null || typeof options !== 'object') throw misuse(`@Controller('${prefix}', options): options must be an object.`);
  if (options.tags !== undefined && !isStringArray(options.tags)) throw misuse(`@Controller('${prefix}'): tags must be a list of strings.`);
  if (options.middleware !== undefined && !(Array.isArray(options.middleware) && options.middleware.every((m) => typeof m === 'function'))) {
    throw misuse(`@Controller('${prefix}'): middleware must be a list of async (req, res, next) functions.`);
  }
  if (options.name !== undefined && (typeof options.name !== 'string' || options.name === '')) {
    throw misuse(`@Controller('${prefix}'): name must be a non-empty string.`);
  }
  if (options.responseFiltering !== undefined && typeof options.responseFiltering !== 'boolean') {
    throw misuse(`@Controller('${prefix}'): responseFiltering must be true or false.`);
  }
  return (target) => {
    if (getControllerMeta(target)) throw misuse(`${target.name}: @Controller is applied twice.`);
    setControllerMeta(target, { prefix, options: { ...options } });
  };
}
