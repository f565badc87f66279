import { checkContainerOptions } from '../../routing/route-options';
import { getControllerMeta, setControllerMeta, type ControllerOptions } from '../metadata';
import { misuse } from './targets';

/**
 * Marks a class as a controller: every route method inside is served under `prefix`. The class
 * is turned into ordinary routes by `app.registerControllers()` when the app starts.
 *
 * @example
 * @Controller('/users', { tags: ['users'], name: 'users', middleware: [audit], security: [{ bearerAuth: [] }] })
 * class UserController {
 *   @Get('/{id:int}', { name: 'get' })          // GET /users/{id:int}, urlFor('users.get', { id })
 *   async getUser(@Param('id') id: number) { ... }
 * }
 */
export function Controller(prefix = '', options: ControllerOptions = {}): ClassDecorator {
  if (typeof prefix !== 'string') throw misuse('@Controller(prefix, options): prefix must be a string such as \'/users\'.');
  if (options === null || typeof options !== 'object') throw misuse(`@Controller('${prefix}', options): options must be an object.`);
  // Checked by the route options table's rows, as a Router's and a Group's are.
  const inherited = checkContainerOptions(`@Controller('${prefix}')`, options, { name: 'name' });
  return (target) => {
    if (getControllerMeta(target)) throw misuse(`${target.name}: @Controller is applied twice.`);
    setControllerMeta(target, { prefix, options: { ...inherited, name: options.name } });
  };
}
