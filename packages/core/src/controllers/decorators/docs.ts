import type { ResponseSchema } from '../../routing/types';
import type { MethodMeta } from '../metadata';
import { flagDecorator, isStringArray, levelTarget, methodTarget, misuse, prepend, type ClassOrMethodDecorator, type RouteMethodDecorator } from './targets';

/**
 * Marks the route (or, on the class, every route of the controller) deprecated in the OpenAPI
 * document. It is still served.
 */
export const Deprecated = flagDecorator('@Deprecated', 'deprecated');

/** The last argument of `@Tags`: `{ replace: true }` on a method drops the controller's tags for that route. */
export interface TagsOptions {
  replace?: boolean;
}

/**
 * OpenAPI tags. On the class they come before each route's own tags; several `@Tags` add up in the
 * order written. On a method, a last argument `{ replace: true }` makes the route's tags (all its
 * `@Tags` and its `tags` option) replace the controller's instead of following them.
 *
 * @example
 * @Controller('/articles')
 * @Tags('articles')
 * class ArticlesController {
 *   @Get('/')
 *   @Tags('public')                      // tags: ['articles', 'public']
 *   async list() { ... }
 *
 *   @Get('/feed')
 *   @Tags('feed', { replace: true })     // tags: ['feed']
 *   async feed() { ... }
 * }
 */
export function Tags(...tags: [...tags: string[], options: TagsOptions] | string[]): ClassOrMethodDecorator {
  const last = tags[tags.length - 1];
  const options: TagsOptions = last !== null && typeof last === 'object' && !Array.isArray(last) ? (last as TagsOptions) : {};
  const names = last === options ? tags.slice(0, -1) : tags;
  if (names.length === 0 || !isStringArray(names)) throw misuse("@Tags(...tags) expects one or more strings, e.g. @Tags('users').");
  if (options.replace !== undefined && typeof options.replace !== 'boolean') throw misuse('@Tags(..., { replace }): replace must be true or false.');
  return (target, key, descriptor) => {
    if (options.replace && key === undefined) throw misuse("@Tags(..., { replace: true }) goes on a route method: it replaces the controller's tags for that route.");
    const level = levelTarget('@Tags', target, key, descriptor);
    prepend(level.tags, names);
    if (options.replace) (level as MethodMeta).replaceTags = true; // a method: the class case threw above
  };
}

/** A decorator that stores a non-empty text on the route method (`@Summary`, `@Description`, `@OperationId`). */
function textDecorator(label: string, field: 'summary' | 'description' | 'operationId'): (text: string) => RouteMethodDecorator {
  return (text) => {
    if (typeof text !== 'string' || text === '') throw misuse(`${label}(text) expects a non-empty string.`);
    return (target, key, descriptor) => {
      methodTarget(label, target, key, descriptor)[field] = text;
    };
  };
}

/** The operation's one-line summary in the OpenAPI document (wins over the `summary` option). */
export const Summary = textDecorator('@Summary', 'summary');

/** The operation's longer description (Markdown) in the OpenAPI document. */
export const Description = textDecorator('@Description', 'description');

/** The operation's `operationId`; it must be unique in the document. */
export const OperationId = textDecorator('@OperationId', 'operationId');

/**
 * Documents one response: a model class, `[Class]`, a `{ field: Type }` shape or
 * `{ description }`. On the class it documents that status for every route (a route's own
 * declaration of the same status wins).
 *
 * @example
 * @Get('/{id:int}')
 * @ApiResponse(200, UserDto)
 * @ApiResponse(404, { description: 'No such user' })
 * async getUser(@Param('id') id: number) { ... }
 */
export function ApiResponse(status: number, schema: ResponseSchema): ClassOrMethodDecorator {
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw misuse(`@ApiResponse(status, schema): ${String(status)} is not an HTTP status code.`);
  }
  if (schema === null || (typeof schema !== 'function' && typeof schema !== 'object')) {
    throw misuse(`@ApiResponse(${status}, schema): schema must be a class, [Class], a { field: Type } shape or { description }.`);
  }
  return (target, key, descriptor) => {
    prepend(levelTarget('@ApiResponse', target, key, descriptor).responses, [[status, schema]]);
  };
}

/** Leaves the route (or, on the class, every route of the controller) out of the OpenAPI document. */
export const ExcludeFromSchema = flagDecorator('@ExcludeFromSchema', 'excludeFromSchema');
