import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ParameterObject } from 'openapi3-ts/oas31';
import type { MultipartOptions } from '../http/multipart-limits';
import type { TernRequest, UntypedParam } from '../http/request';
import type { TernResponse } from '../http/response';
import type { StandardSchemaV1 } from '../validation/standard-schema/spec';

/**
 * What a handler resolves to: the response, or a plain value sent as JSON (a string as text).
 * Handlers are async, which also lets the compiler catch one that resolves to nothing.
 */
export type HandlerResult = TernResponse | object | string | number | boolean | null;

/**
 * A route handler: `params` are the converted path parameters (typed from the path literal).
 *
 * @example
 * const getUser: Handler<{ id: number }> = async (req, res, { id }) => res.json({ id });
 */
export type Handler<P = Record<string, UntypedParam>> = (
  req: TernRequest<P>,
  res: TernResponse,
  params: P,
) => Promise<HandlerResult>;

/** The output type of a Standard Schema (`StandardSchemaV1.InferOutput`). */
type OutputOf<S> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : never;

/** Success statuses whose declared schema types what a handler returns. */
type SuccessStatus = 200 | 201 | 202 | 203 | 206 | '200' | '201' | '202' | '203' | '206' | '2XX';

/** `{ body: Output }` when the options' `requestModel` is a Standard Schema; nothing otherwise. */
type BodyOf<O> = O extends { requestModel: infer S } ? (S extends StandardSchemaV1 ? { body: StandardSchemaV1.InferOutput<S> } : unknown) : unknown;

/** `{ query: Output }` when the options' `query` is a Standard Schema. */
type QueryOf<O> = O extends { query: infer S } ? (S extends StandardSchemaV1 ? { query: StandardSchemaV1.InferOutput<S> } : unknown) : unknown;

/** What a handler may resolve to: the response, or the output of the success response's Standard Schema when one is declared. */
type ResultOf<O> = [SuccessSchemaOf<O>] extends [never] ? HandlerResult : TernResponse | OutputOf<SuccessSchemaOf<O>>;

type SuccessSchemaOf<O> = O extends { responseModel: infer R }
  ? Extract<R, StandardSchemaV1>
  : O extends { responses: infer M }
    ? Extract<M[Extract<keyof M, SuccessStatus>], StandardSchemaV1>
    : never;

/**
 * The handler of a method helper given options (`app.post(path, options, handler)`): `req.body`
 * is typed by a Standard Schema `requestModel` (its output), and the value it returns by the
 * success response's Standard Schema (`responseModel`, or `responses` at a 2xx status); with class
 * models it is a plain `Handler`.
 *
 * @example
 * app.post('/items', { requestModel: CreateItem, responses: { 201: Item } }, async (req) => ({ id: 1, ...req.body }));
 */
export type RouteHandler<P, O> = (req: TernRequest<P> & BodyOf<O> & QueryOf<O>, res: TernResponse, params: P) => Promise<ResultOf<O>>;

/**
 * Middleware: `return next()` continues the chain; returning a response stops it; a throw
 * becomes the matching exception handler's answer (500 by default).
 *
 * @example
 * const timing: Middleware = async (req, res, next) => {
 *   const start = performance.now();
 *   const response = await next();
 *   return response.setHeader('Server-Timing', `app;dur=${performance.now() - start}`);
 * };
 */
export type Middleware = (
  req: TernRequest,
  res: TernResponse,
  next: () => Promise<TernResponse>,
) => Promise<HandlerResult>;

/**
 * A Group middleware factory. Written as a method's type so that a factory declaring its own
 * argument types (`(args: { level: number }) => …`) is accepted: method parameters are bivariant.
 */
type MiddlewareFactory = { build(args: object, options: object): Middleware }['build'];

/** A Group middleware entry: a function, or `[factory, args, options]` built as `factory(args, options)`. */
export type MiddlewareEntry = Middleware | [MiddlewareFactory, object, object];

/** A plain Node request listener (an Express app, another TernApp's `handler`). */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** A security requirement entry: scheme name → required scopes. */
export type SecurityRequirement = Record<string, string[]>;

/**
 * A response schema: a class, `[Class]`, a `{ field: type }` shape, or `{ description }`. Lists
 * are typed as arrays, not one-element tuples, so a shape kept in a constant
 * (`const Page = { items: [Item], total: Number }`) fits without an annotation; a list of any
 * other length is refused at startup.
 */
export type ResponseSchema = Function | StandardSchemaV1 | readonly (Function | StandardSchemaV1)[] | readonly ResponseShape[] | { description: string } | ResponseShape;

/**
 * A response body described field by field, each field a constructor (`String`, `Number`,
 * `Boolean`, `Date`, a model class), a list of one, or a nested shape.
 *
 * @example
 * const shape: ResponseShape = { id: Number, name: String, tags: [String], owner: { id: Number } };
 */
export interface ResponseShape {
  [field: string]: Function | StandardSchemaV1 | readonly (Function | StandardSchemaV1)[] | ResponseShape | readonly ResponseShape[];
}

/**
 * The `rateLimit` route option.
 *
 * @example
 * app.post('/login', { rateLimit: { limit: 5, window: 60_000, key: 'ip' } }, login);
 * app.get('/search', { rateLimit: { limit: 100, window: 60_000, key: (req) => req.headers.get('x-api-key') ?? req.ip ?? '' } }, search);
 */
export interface RateLimitOptions {
  /** Requests allowed per window (a positive whole number). */
  limit: number;
  /** The window's length in milliseconds (at least 1000). */
  window: number;
  /**
   * Who is counted: `'ip'` (default; `req.ip`, so behind a proxy set `trustProxy`), `'user'`
   * (the principal `enforceSecurity` set, by its `id` or `sub` when it is an object; `req.ip` for
   * anonymous requests), or a function of the request returning the key.
   */
  key?: 'ip' | 'user' | ((req: TernRequest) => string | Promise<string>);
  /** When the store fails or times out: `'fail'` (default) answers 503, `'pass'` lets the request through uncounted. */
  onStoreError?: 'fail' | 'pass';
}

/** The route options every declaration style shares: what `new Routes({ ... })` takes besides `path` and `handler`. */
export interface RouteOptions {
  /**
   * Largest request body this route accepts, in bytes; larger is a 413 (default: the app's
   * `bodyLimit`). Keeps JSON routes small in an app whose upload routes take large bodies.
   */
  bodyLimit?: number;
  /**
   * Largest `multipart/form-data` body this route accepts, in bytes, read by `req.multipart()`,
   * `req.parts()`, upload decorators or a multipart `requestModel` (default: the app's `multipartLimit`).
   */
  multipartLimit?: number;
  /** HTTP methods accepted; default `['GET']` (method helpers set it for you). */
  methods?: string[];
  /** Name for `urlFor`; dotted with named routers' names. */
  name?: string;
  summary?: string;
  description?: string;
  /** Status code → response schema, for the OpenAPI document. */
  responses?: Record<number, ResponseSchema>;
  /**
   * A class-validator class, or a Standard Schema value (zod, valibot, arktype…): the body is
   * validated into `req.body` (the class instance, or the library's output) before the handler runs.
   */
  requestModel?: Function | StandardSchemaV1;
  /**
   * A Standard Schema for the query string: its values are shaped by the schema's JSON Schema
   * (numbers, booleans, repeated values as lists), validated by the library into `req.query`
   * before the handler runs (a failure is a 422), and documented as query parameters.
   */
  query?: StandardSchemaV1;
  middleware?: Middleware[];
  tags?: string[];
  security?: SecurityRequirement[];
  operationId?: string;
  deprecated?: boolean;
  /** Extra OpenAPI parameters (query, header, cookie). */
  parameters?: ParameterObject[];
  excludeFromSchema?: boolean;
  /** The status sent when the handler returns a plain value (default 200). */
  statusCode?: number;
  /**
   * Media types the request body may have; a body of another type is a 415 naming them.
   * Without it a route takes any body (JSON when a `requestModel` reads it). With a `requestModel`
   * it says how the model is read: `'application/json'`, `'application/x-www-form-urlencoded'`,
   * `'multipart/form-data'` (its text fields); other types fail `ready()`. Without one, any media
   * types (`'application/octet-stream'`, `'image/*'`) for handlers reading `req.buffer()` or
   * `req.stream()`. Documented as the request body's content types.
   */
  consumes?: string[];
  /**
   * Limits of this route's multipart body, resolved in `ready()`: what the `requestModel`, a
   * controller's uploaded files, `csrf()` and `req.multipart()`/`req.parts()` without options read with.
   */
  multipart?: MultipartOptions;
  /**
   * `false` sends this route's JSON bodies as the handler gave them, even where `responses`
   * declares a model (default: the app's `MakeConfig.responseFiltering`, on).
   */
  responseFiltering?: boolean;
  /**
   * Media types of the responses other than JSON, by status: `{ 200: 'image/png' }` or
   * `{ 200: ['text/csv', 'application/json'] }`. Documented as each response's content types.
   */
  produces?: Record<number, string | string[]>;
  /**
   * Errors the handler throws as `HTTPException`, by status, with a description:
   * `{ 404: 'No such note' }`. Documented as problem+json responses with the shared `Problem` schema.
   */
  problems?: Record<number, string>;
  /** Where the route was declared (a file, `Class.method`): conflict and startup errors name it. */
  declaredIn?: string;
  /** Unknown `requestModel` properties answer 422 naming them instead of being stripped (default: the app's `MakeConfig`). */
  forbidUnknownProperties?: boolean;
  /** The route answers with `res.sse()`: the OpenAPI document shows its success response as `text/event-stream`. */
  sse?: boolean;
  /**
   * At most `limit` requests per `window` milliseconds per client (`key`): over it, 429 with
   * `Retry-After`. Counted in the app's store, so it holds across workers on `redisStore()`.
   * Inherited from the app, routers, groups and controllers; `false` turns an inherited one off.
   * See docs/rate-limiting.md.
   */
  rateLimit?: RateLimitOptions | false;
  /**
   * The success response's model: short for `responses: { [statusCode ?? 200]: Model }`, folded
   * into `responses` when the app starts (route files' `markAsRoute({ responseModel })` sets it);
   * it documents and filters. A `responses` entry for that status naming another schema fails
   * `ready()` (`TERN_INVALID_ROUTE_OPTION`).
   */
  responseModel?: ResponseSchema;
  /**
   * The template that shows this route's form again when its `requestModel` rejects the input:
   * rendered with `{ errors: { field: string[] }, values }` (the submitted fields) and status 422
   * instead of the JSON problem. Makes the route a page (HTML error pages, 404 for a bad path value).
   */
  formTemplate?: string;
  /**
   * The page's own data for `formTemplate` (a comment form under a post needs the post): called
   * when the form is shown again, its result rendered with `errors` and `values` (which win on a
   * clash). Usually the loader the page's GET handler uses. Needs `formTemplate`.
   */
  formContext?: (req: TernRequest, res: TernResponse) => object | Promise<object>;
  /** Your own metadata for middleware and plugins, read as `req.route.extra` / `route.extra`. */
  extra?: Record<string, unknown>;
  /**
   * The 4xx statuses a valid request may get from this route's handler (a business rule: "email
   * has already been taken"), written onto the operation as `x-may-refuse`: `checkContract` then
   * does not count such an answer as refusing a valid request (docs/testing.md).
   *
   * @example
   * app.post('/users', { requestModel: SignUp, problems: { 422: 'Taken' }, 'x-may-refuse': [422] }, signUp);
   */
  'x-may-refuse'?: number[];
  /**
   * Socket routes only (`app.ws`): a model class or a Standard Schema (zod, valibot, arktype…)
   * every JSON frame is validated by before `message` gets it (the instance, or the library's
   * output); a frame that is not JSON gets an error frame with status 400, one the model refuses
   * status 422 with the field errors. The socket stays open.
   */
  messageModel?: Function | StandardSchemaV1;
  /** Socket routes only: the largest frame (message) in bytes (default: the app's `websocket.maxPayload`, 64 KiB); larger closes with 1009. */
  maxPayload?: number;
  /** OpenAPI specification extensions, written onto the operation (and kept in `extra`). */
  [extension: `x-${string}`]: unknown;
}

/**
 * The route options a container sets for every route inside it: a `Router`, a `Group`, a
 * `@Controller`, and (`AppRouteOptions`) the app. Each combines with the routes' own values by its
 * table row's rule (`Inheritance` in routing/route-options.ts; docs/routing.md#inherited-route-options).
 *
 * @example
 * const admin = new Router({ prefix: '/admin', tags: ['admin'], security: [{ bearerAuth: [] }], bodyLimit: 64 * 1024 });
 * admin.get('/health', health, { security: [] }); // public: the route's own security replaces the router's
 */
export type InheritedRouteOptions = Pick<
  RouteOptions,
  | 'bodyLimit'
  | 'multipartLimit'
  | 'responses'
  | 'middleware'
  | 'tags'
  | 'security'
  | 'deprecated'
  | 'excludeFromSchema'
  | 'responseFiltering'
  | 'forbidUnknownProperties'
  | 'rateLimit'
>;

/**
 * The route options `new TernApp({ ... })` takes for every route of the app (the outermost level
 * of inheritance, below routers, groups and controllers): rows of the options table marked `app`.
 *
 * @example
 * new TernApp({ security: [{ bearerAuth: [] }], responses: { 401: { description: 'Not signed in' } } });
 */
export type AppRouteOptions = Pick<InheritedRouteOptions, 'security' | 'responses' | 'rateLimit'>;

/** A file field of a route's multipart body (a controller's `@UploadedFile`), as the document describes it. */
export interface UploadField {
  /** Undefined for "every file" (`@UploadedFiles()`). */
  readonly name?: string;
  readonly multiple: boolean;
  readonly required: boolean;
  readonly mimeTypes?: readonly string[];
}

/**
 * What Tern knows about the input of a handler it built (the controller scanner): whether its
 * parameters can refuse a value with a 422, and the files it reads. Not a route option: users
 * do not declare it, and `route.extra` does not show it.
 */
export interface HandlerInput {
  readonly checksInput: boolean;
  readonly uploads?: readonly UploadField[];
}
