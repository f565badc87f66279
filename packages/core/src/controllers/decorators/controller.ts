import { optionMistake } from '../../routing/route-options';
import { getControllerMeta, setControllerMeta, type ControllerOptions } from '../metadata';
import { misuse } from './targets';

/** The options `@Controller` takes, each a route option its routes inherit or compose with. */
const OPTIONS: Record<keyof ControllerOptions, true> = {
  tags: true, middleware: true, security: true, name: true, excludeFromSchema: true, forbidUnknownProperties: true,
  responseFiltering: true, bodyLimit: true, multipartLimit: true, rateLimit: true,
};

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
  // Checked by the route options table's rows, as the routes that inherit them will be.
  for (const [key, value] of Object.entries(options)) {
    if (!Object.prototype.hasOwnProperty.call(OPTIONS, key)) throw misuse(`@Controller('${prefix}'): unknown option '${key}'.`);
    const mistake = value === undefined ? undefined : optionMistake(key as keyof ControllerOptions, value);
    if (mistake) throw misuse(`@Controller('${prefix}'): ${mistake}`);
  }
  return (target) => {
    if (getControllerMeta(target)) throw misuse(`${target.name}: @Controller is applied twice.`);
    setControllerMeta(target, { prefix, options: { ...options } });
  };
}
