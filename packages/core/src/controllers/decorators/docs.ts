import type { ResponseSchema } from '../../routing/types';
import { isStringArray, levelTarget, methodTarget, misuse, prepend, type ClassOrMethodDecorator, type RouteMethodDecorator } from './targets';

/**
 * Marks the route (or, on the class, every route of the controller) deprecated in the OpenAPI
 * document. It is still served.
 */
export function Deprecated(): ClassOrMethodDecorator {
  return (target, key, descriptor) => {
    levelTarget('@Deprecated', target, key, descriptor).deprecated = true;
  };
}

/**
 * OpenAPI tags. On the class they come before each route's own tags; several `@Tags` add up in the
 * order written.
 *
 * @example
 * @Get('/')
 * @Tags('posts', 'public')
 * async list() { ... }
 */
export function Tags(...tags: string[]): ClassOrMethodDecorator {
  if (tags.length === 0 || !isStringArray(tags)) throw misuse("@Tags(...tags) expects one or more strings, e.g. @Tags('users').");
  return (target, key, descriptor) => {
    prepend(levelTarget('@Tags', target, key, descriptor).tags, tags);
  };
}

function text(label: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') throw misuse(`${label}(text) expects a non-empty string.`);
  return value;
}

/** The operation's one-line summary in the OpenAPI document (wins over the `summary` option). */
export function Summary(summary: string): RouteMethodDecorator {
  const value = text('@Summary', summary);
  return (target, key, descriptor) => {
    methodTarget('@Summary', target, key, descriptor).summary = value;
  };
}

/** The operation's longer description (Markdown) in the OpenAPI document. */
export function Description(description: string): RouteMethodDecorator {
  const value = text('@Description', description);
  return (target, key, descriptor) => {
    methodTarget('@Description', target, key, descriptor).description = value;
  };
}

/** The operation's `operationId`; it must be unique in the document. */
export function OperationId(operationId: string): RouteMethodDecorator {
  const value = text('@OperationId', operationId);
  return (target, key, descriptor) => {
    methodTarget('@OperationId', target, key, descriptor).operationId = value;
  };
}

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
export function ExcludeFromSchema(): ClassOrMethodDecorator {
  return (target, key, descriptor) => {
    levelTarget('@ExcludeFromSchema', target, key, descriptor).excludeFromSchema = true;
  };
}
