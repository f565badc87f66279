import type { RouteOptions } from '../../routing/types';
import { methodTarget, misuse, type RouteMethodDecorator } from './targets';

/** The options of `@Get`, `@Post`, …: every `Routes` option except `methods`. */
export type MethodRouteOptions = Omit<RouteOptions, 'methods'>;

function declare(methods: string[] | undefined, label: string, path: unknown, options: unknown): RouteMethodDecorator {
  if (typeof path !== 'string') throw misuse(`${label}(path, options): path must be a string such as '/{id:int}'.`);
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw misuse(`${label}('${path}', options): options must be an object.`);
  }
  const { methods: given, ...rest } = options as RouteOptions;
  const list = methods ?? given ?? ['GET'];
  if (!Array.isArray(list) || list.length === 0 || !list.every((m) => typeof m === 'string')) {
    throw misuse(`${label}('${path}'): methods must be a non-empty list such as ['GET', 'POST'].`);
  }
  return (target, key, descriptor) => {
    const meta = methodTarget(label, target, key, descriptor);
    // Decorators apply bottom-up: keep several route decorators in the order they are written.
    meta.routes.unshift({ path, methods: list.map((m) => m.toUpperCase()), options: rest });
  };
}

/**
 * `GET path` served by the decorated method. `options` takes every `Routes` option (`name`,
 * `summary`, `responses`, `security`, `statusCode`, …; unknown keys are kept as route metadata).
 * The path defaults to `/`, which serves the controller's prefix itself.
 *
 * @example
 * @Get('/{id:int}', { name: 'get', summary: 'Get a user', responses: { 200: UserDto, 404: { description: 'Not found' } } })
 * async getUser(@Param('id') id: number) { return this.users.find(id); }
 */
export function Get(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['GET'], '@Get', path, options);
}

/**
 * `POST path`. A plain return value is sent as JSON with `options.statusCode` (default 200).
 *
 * @example
 * @Post('/', { statusCode: 201 })
 * async create(@Body() body: CreateUserDto) { return this.users.create(body); }
 */
export function Post(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['POST'], '@Post', path, options);
}

/** `PUT path`; see {@link Get} for the options. */
export function Put(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['PUT'], '@Put', path, options);
}

/** `PATCH path`; see {@link Get} for the options. */
export function Patch(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['PATCH'], '@Patch', path, options);
}

/**
 * `DELETE path`. With `statusCode: 204` the method may return nothing: an empty 204 is sent.
 *
 * @example
 * @Delete('/{id:int}', { statusCode: 204 })
 * async remove(@Param('id') id: number) { this.users.remove(id); }
 */
export function Delete(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['DELETE'], '@Delete', path, options);
}

/** `HEAD path` (every GET route already answers HEAD unless a HEAD route is declared). */
export function Head(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['HEAD'], '@Head', path, options);
}

/** `OPTIONS path`; see {@link Get} for the options. */
export function Options(path = '/', options: MethodRouteOptions = {}): RouteMethodDecorator {
  return declare(['OPTIONS'], '@Options', path, options);
}

/**
 * One method for several HTTP methods (default `['GET']`); the method reads `req.method`.
 *
 * @example
 * @Route('/ping', { methods: ['GET', 'POST'] })
 * async ping(@Req() req: Request) { return { method: req.method }; }
 */
export function Route(path = '/', options: RouteOptions = {}): RouteMethodDecorator {
  return declare(undefined, '@Route', path, options);
}
