import type { RouteOptions } from '../../routing/types';
import { methodTarget, misuse, type RouteMethodDecorator } from './targets';

/** The options of `@Get`, `@Post`, …: every `Routes` option except `methods`. */
export type MethodRouteOptions = Omit<RouteOptions, 'methods'>;

/** The HTTP methods that have a decorator of their own. */
type MappedMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';

/** The shape of `@Get`, `@Post`, … and `@Route`: a path (default `/`) and route options. */
type MappingDecorator<O extends RouteOptions> = (path?: string, options?: O) => RouteMethodDecorator;

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
 * Builds a route method decorator: for one HTTP method (`'GET'` gives `@Get`, whose error
 * messages say `@Get`), or, without one, `@Route`, which reads the methods from its options.
 */
function mappingDecorator(method: MappedMethod): MappingDecorator<MethodRouteOptions>;
function mappingDecorator(): MappingDecorator<RouteOptions>;
function mappingDecorator(method?: MappedMethod): MappingDecorator<RouteOptions> {
  const label = method === undefined ? '@Route' : `@${method[0]}${method.slice(1).toLowerCase()}`;
  const fixed = method === undefined ? undefined : [method];
  return (path = '/', options = {}) => declare(fixed, label, path, options);
}

/**
 * `GET path` served by the decorated method. `options` takes every `Routes` option (`name`,
 * `summary`, `responses`, `security`, `statusCode`, …; your own metadata goes under `extra`).
 * The path defaults to `/`, which serves the controller's prefix itself.
 *
 * @example
 * @Get('/{id:int}', { name: 'get', summary: 'Get a user', responses: { 200: UserDto, 404: { description: 'Not found' } } })
 * async getUser(@Param('id') id: number) { return this.users.find(id); }
 */
export const Get = mappingDecorator('GET');

/**
 * `POST path`. A plain return value is sent as JSON with `options.statusCode` (default 200).
 *
 * @example
 * @Post('/', { statusCode: 201 })
 * async create(@Body() body: CreateUserDto) { return this.users.create(body); }
 */
export const Post = mappingDecorator('POST');

/**
 * `PUT path`: replaces the resource; see {@link Get} for the options.
 *
 * @example
 * @Put('/{id:int}')
 * async replace(@Param('id') id: number, @Body() body: UserDto) { return this.users.replace(id, body); }
 */
export const Put = mappingDecorator('PUT');

/**
 * `PATCH path`: changes part of the resource; see {@link Get} for the options.
 *
 * @example
 * @Patch('/{id:int}')
 * async rename(@Param('id') id: number, @Body() body: RenameUserDto) { return this.users.rename(id, body.name); }
 */
export const Patch = mappingDecorator('PATCH');

/**
 * `DELETE path`. With `statusCode: 204` the method may return nothing: an empty 204 is sent.
 *
 * @example
 * @Delete('/{id:int}', { statusCode: 204 })
 * async remove(@Param('id') id: number) { this.users.remove(id); }
 */
export const Delete = mappingDecorator('DELETE');

/**
 * `HEAD path`. Every GET route already answers HEAD (same headers, no body); declare one only
 * when HEAD can be answered more cheaply than GET.
 *
 * @example
 * @Head('/{id:int}')
 * async exists(@Param('id') id: number, @Res() res: Response) { return res.status(this.users.has(id) ? 200 : 404); }
 */
export const Head = mappingDecorator('HEAD');

/**
 * `OPTIONS path`; see {@link Get} for the options.
 *
 * @example
 * @Options('/')
 * async describe(@Res() res: Response) { return res.setHeader('Allow', 'GET, POST').status(204); }
 */
export const Options = mappingDecorator('OPTIONS');

/**
 * One method for several HTTP methods (`options.methods`, default `['GET']`); the method reads
 * `req.method`.
 *
 * @example
 * @Route('/ping', { methods: ['GET', 'POST'] })
 * async ping(@Req() req: Request) { return { method: req.method }; }
 */
export const Route = mappingDecorator();
