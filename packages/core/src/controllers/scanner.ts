/**
 * Controllers → ordinary declarations. Runs once, in `app.ready()`: every bit of reflection the
 * controller layer does happens here. Each controller becomes a `Router` (its prefix, name and
 * the route options its options and class decorators give) holding one `Routes` per route
 * decorator, so inheritance, conflicts, names, `urlFor`, middleware, OpenAPI and `getAllRoutes`
 * treat controller routes like any other.
 */
import type { ParameterObject } from 'openapi3-ts/oas31';
import { TernError, TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import type { TernResponse } from '../http/response';
import type { CompileOptions } from '../routing/compile';
import { compilePath, joinPaths, pathParamNames } from '../routing/path';
import { statusKeyed } from '../openapi/status-keyed';
import { Router } from '../routing/router';
import { inheritOptions, keepAsDeclared, routeSpec } from '../routing/route-options';
import { Routes, withOptions, type AnyRoutes, type RouteDefinition } from '../routing/routes';
import { SocketRoutes, type SocketOptions, type SocketSource } from '../routing/socket-route';
import type { Handler, HandlerResult, InheritedRouteOptions, ResponseSchema, RouteOptions, SecurityRequirement } from '../routing/types';
import {
  declaredMethods,
  getClassLevel,
  getControllerMeta,
  reflectedParamTypes,
  type ControllerMeta,
  type DeclaredMethod,
  type LevelMeta,
  type ParamMeta,
  type RouteDecl,
} from './metadata';
import { compileParam, ParamFailure, type CompiledParam } from './params';
import type { ModelCompiler } from '../validation/model-compiler';
import { routeConsumes, routeMultipartOptions } from './uploads';
import { modelName } from '../validation/standard-schema';

/** What `registerControllers` accepts: controller classes (built with `new C()` or `resolve`) or instances. */
export type ControllerEntry = Function | object;

/**
 * Builds a controller class's instance: a dependency container's `resolve`. Called once per
 * class, at startup; the instance serves every request (controllers are singletons).
 *
 * @example
 * const resolve: ControllerResolver = (Class) => container.resolve(Class as InjectionToken<object>);
 */
export type ControllerResolver = (controller: Function) => object;

/** How `scanControllers` builds and compiles controllers: with the app's model settings, as routes compile (`@Query()` models too). */
export interface ScanOptions extends Pick<CompileOptions, 'forbidUnknownProperties' | 'checkModel'> {
  /** Builds controller classes (instead of `new C()`). */
  resolve?: ControllerResolver;
  /** The app's model compiler: `@Query()` models are compiled and documented with it. */
  modelCompiler: ModelCompiler;
}

/**
 * The route provider `app.registerControllers` adds: the controllers are scanned at `ready()`
 * (or when `getAllRoutes()` asks first), once, so instances are never built twice.
 */
export function controllersProvider(controllers: readonly ControllerEntry[], options: ScanOptions): { provide(): Router[] } {
  if (options.resolve !== undefined && typeof options.resolve !== 'function') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'registerControllers: resolve must be a function (Class) => instance.');
  }
  const list = Array.isArray(controllers) ? [...controllers] : controllers;
  let scanned: Router[] | undefined;
  return { provide: () => (scanned ??= scanControllers(list, options)) };
}

/**
 * Turns controllers into one `Router` each. Throws a `TernError` that says how to fix the first
 * declaration that cannot work.
 */
function scanControllers(controllers: readonly ControllerEntry[], options: ScanOptions): Router[] {
  if (!Array.isArray(controllers)) {
    throw new TernError('TERN_CONTROLLER_INVALID', 'registerControllers expects a list: registerControllers([UserController, new PostController(db)]).');
  }
  return controllers.map((entry) => scanController(entry, options));
}

interface Target {
  cls: Function;
  instance: Record<string | symbol, unknown>;
  meta: ControllerMeta;
}

function notAController(name: string): TernError {
  return new TernError(
    'TERN_CONTROLLER_MISSING_DECORATOR',
    `${name} is not a controller: decorate the class with @Controller('/prefix') (a subclass of a controller needs its own @Controller).`,
  );
}

/** `build()`, or the `TERN_CONTROLLER_INSTANTIATION` error naming `call` and what to do about it. */
function instantiate(call: string, build: () => unknown, advice: string): unknown {
  try {
    return build();
  } catch (err) {
    throw new TernError('TERN_CONTROLLER_INSTANTIATION', `${call} failed: ${err instanceof Error ? err.message : String(err)}. ${advice}`, { cause: err });
  }
}

/** A class built by the app's `resolve` (a dependency container). */
function resolveWith(resolve: ControllerResolver, cls: Function, meta: ControllerMeta): Target {
  const instance = instantiate(`resolve(${cls.name})`, () => resolve(cls), 'Check that the container can build it and its dependencies.');
  if (instance === null || typeof instance !== 'object' || instance instanceof Promise) {
    throw new TernError(
      'TERN_CONTROLLER_INSTANTIATION',
      `resolve(${cls.name}) returned ${instance instanceof Promise ? 'a Promise' : instance === null ? 'null' : typeof instance}; it must return the controller instance synchronously.`,
    );
  }
  return { cls, instance: instance as Record<string | symbol, unknown>, meta };
}

function resolveTarget(entry: ControllerEntry, resolve: ControllerResolver | undefined): Target {
  if (typeof entry === 'function') {
    const meta = getControllerMeta(entry);
    if (!meta) throw notAController(entry.name || 'An anonymous class');
    if (resolve) return resolveWith(resolve, entry, meta);
    if (entry.length > 0) {
      throw new TernError(
        'TERN_CONTROLLER_INSTANTIATION',
        `${entry.name}'s constructor takes ${entry.length} parameter(s) and no resolve function was given: ` +
          `build it yourself and register the instance, e.g. registerControllers([new ${entry.name}(...)]), ` +
          'or pass your container: registerControllers([...], { resolve: (C) => container.resolve(C) }) (see docs/dependency-injection.md).',
      );
    }
    const instance = instantiate(`new ${entry.name}()`, () => new (entry as new () => object)(), 'Build it yourself and register the instance instead.');
    return { cls: entry, instance: instance as Record<string | symbol, unknown>, meta };
  }
  if (entry !== null && typeof entry === 'object') {
    const cls = (entry as { constructor?: unknown }).constructor;
    const meta = typeof cls === 'function' ? getControllerMeta(cls) : undefined;
    if (typeof cls !== 'function' || cls === Object) {
      throw new TernError('TERN_CONTROLLER_INVALID', 'registerControllers got a plain object; pass @Controller classes or instances of them.');
    }
    if (!meta) throw notAController(`${cls.name || 'An anonymous class'} (given as an instance)`);
    return { cls, instance: entry as Record<string | symbol, unknown>, meta };
  }
  throw new TernError('TERN_CONTROLLER_INVALID', `registerControllers got ${entry === null ? 'null' : typeof entry}; pass @Controller classes or instances of them.`);
}

function scanController(entry: ControllerEntry, scan: ScanOptions): Router {
  const { cls, instance, meta } = resolveTarget(entry, scan.resolve);
  const { prefix, options } = meta;
  const { name, ...given } = options;
  // The class decorators add to the options, as the method's decorators add to its route's.
  const inherited = inheritOptions(given, decoratorOptions(`${cls.name} (class)`, options.security, getClassLevel(cls)));
  const router = new Router({ prefix, name, ...inherited });

  let count = 0;
  for (const method of declaredMethods(cls)) {
    const where = `${cls.name}.${String(method.key)}`;
    const declared = method.meta;
    if (!declared || declared.routes.length === 0) {
      throw new TernError(
        'TERN_CONTROLLER_INVALID',
        `${where} has Tern decorators but no route decorator: add @Get(path), @Post(path), … or @Route(path, { methods }).`,
      );
    }
    const fn = instance[method.key];
    if (typeof fn !== 'function') throw new TernError('TERN_CONTROLLER_INVALID', `${where} is declared as a route but the instance has no such method.`);
    const types = reflectedParamTypes(method.owner, method.key);
    const params = orderedParams(where, method, fn, types);
    for (const decl of declared.routes) {
      router.addRoute(
        buildRoute({ where, prefix, decl, fn, instance, params, typesKnown: types !== undefined, level: declared, inherited, scan }),
      );
      count++;
    }
  }
  if (count === 0) {
    throw new TernError('TERN_CONTROLLER_INVALID', `${cls.name} has no routes: decorate its methods with @Get(path), @Post(path), … or @Route(path, { methods }).`);
  }
  return router;
}

/** The method's parameter declarations by position, with their reflected types; every position must be decorated. */
function orderedParams(
  where: string,
  method: DeclaredMethod,
  fn: Function,
  types: Function[] | undefined,
): Array<{ meta: ParamMeta; type: Function | undefined }> {
  const byIndex = new Map<number, ParamMeta>();
  for (const param of method.params) {
    const other = byIndex.get(param.index);
    if (other) {
      throw new TernError('TERN_CONTROLLER_INVALID', `${where}, parameter #${param.index} has two sources, ${param.label} and ${other.label}; keep one.`);
    }
    byIndex.set(param.index, param);
  }
  const count = Math.max(types?.length ?? fn.length, ...[...byIndex.keys()].map((i) => i + 1));
  const out: Array<{ meta: ParamMeta; type: Function | undefined }> = [];
  for (let i = 0; i < count; i++) {
    const meta = byIndex.get(i);
    if (!meta) {
      const type = types?.[i];
      throw new TernError(
        'TERN_CONTROLLER_UNDECORATED_PARAM',
        `${where}, parameter #${i}${type ? ` (typed ${type.name})` : ''} has no decorator, so Tern does not know what to pass. ` +
          "Add one of @Param('name'), @Query('name'), @Query(), @Body(), @Header('name'), @Cookie('name'), @Req(), @Res(), @User(), @UploadedFile('name') or @UploadedFiles().",
      );
    }
    out.push({ meta, type: types?.[i] });
  }
  return out;
}

/** Method-level security replaces class-level; `@Public()` is `[]`; undefined means none declared. */
function securityOf(where: string, option: SecurityRequirement[] | undefined, level: LevelMeta): SecurityRequirement[] | undefined {
  if (level.public) {
    if (level.security.length > 0 || (option && option.length > 0)) {
      throw new TernError('TERN_CONTROLLER_INVALID', `${where} is declared both @Public() and secured (@Security or the security option); keep one.`);
    }
    return [];
  }
  if (option === undefined && level.security.length === 0) return undefined;
  return [...(option ?? []), ...level.security];
}

/**
 * What one level's decorators (`@Tags`, `@UseMiddleware`, `@Security`/`@Public`, `@ApiResponse`,
 * `@Deprecated`, `@ExcludeFromSchema`) declare, as route options; `security` includes the
 * option's own (`securityOf`).
 */
function decoratorOptions(where: string, security: SecurityRequirement[] | undefined, level: LevelMeta): InheritedRouteOptions {
  const out: InheritedRouteOptions = {};
  if (level.tags.length > 0) out.tags = level.tags;
  if (level.middleware.length > 0) out.middleware = level.middleware;
  const secured = securityOf(where, security, level);
  if (secured !== undefined) out.security = secured;
  const responses = responsesOf(where, level.responses);
  if (responses !== undefined) out.responses = responses;
  if (level.deprecated) out.deprecated = true;
  if (level.excludeFromSchema) out.excludeFromSchema = true;
  return out;
}

function responsesOf(where: string, list: Array<[number, ResponseSchema]>): Record<number, ResponseSchema> | undefined {
  if (list.length === 0) return undefined;
  const out: Record<number, ResponseSchema> = statusKeyed<ResponseSchema>();
  for (const [status, schema] of list) {
    if (status in out) throw new TernError('TERN_CONTROLLER_INVALID', `${where} has two @ApiResponse(${status}, …) declarations; keep one.`);
    out[status] = schema;
  }
  return out;
}

interface RouteInput {
  where: string;
  prefix: string;
  decl: RouteDecl;
  fn: Function;
  instance: object;
  params: Array<{ meta: ParamMeta; type: Function | undefined }>;
  /** TypeScript emitted `design:paramtypes` for the method. */
  typesKnown: boolean;
  level: LevelMeta & { summary?: string; description?: string; operationId?: string; replaceTags?: boolean };
  /** What the controller gives its routes (its options and class decorators): its `forbidUnknownProperties` reaches `@Query()` models. */
  inherited: Readonly<InheritedRouteOptions>;
  /** The app's model settings: its `forbidUnknownProperties` applies to `@Query()` models of routes and controllers that set none. */
  scan: ScanOptions;
}

function buildRoute(input: RouteInput): AnyRoutes {
  const { where, prefix, decl, level } = input;
  const fullPath = joinPaths([prefix], decl.path);
  // What the decorator was given, checked by the route options table before anything is merged
  // (a `tags: 'admin'` spread here would become five tags); the merged options are its spec again.
  const own = routeSpec(decl.options as Readonly<RouteOptions>, `Route ${decl.methods.join(',')} ${fullPath} in ${where}`);
  // The path is compiled with the other routes; here only its parameter names are needed (a
  // malformed path is compiled now, for the error that says what is wrong with it).
  const names = pathParamNames(fullPath) ?? compilePath(fullPath, `${where} (${decl.methods.join(',')} ${fullPath})`).params.map((p) => p.name);
  // The route's own setting, else its controller's (as the route options table combines them), else the app's.
  const { forbidUnknownProperties } = inheritOptions(input.inherited, own);
  const context = {
    where,
    path: fullPath,
    pathParams: new Set(names),
    typesKnown: input.typesKnown,
    forbidUnknownProperties: (forbidUnknownProperties ?? input.scan.forbidUnknownProperties) === true,
    checkModel: input.scan.checkModel,
    compiler: input.scan.modelCompiler,
  };
  const compiledParams = input.params.map(({ meta, type }) => compileParam(meta, type, context));
  const uploads = compiledParams.flatMap((p) => (p.upload ? [p.upload] : []));

  const bodies = compiledParams.filter((p) => p.requestModel);
  if (bodies.length > 1) throw new TernError('TERN_CONTROLLER_INVALID', `${where} has ${bodies.length} @Body() parameters; a request has one body.`);
  const bodyModel = bodies[0]?.requestModel;
  if (decl.socket && bodies.length > 0) {
    throw new TernError('TERN_CONTROLLER_INVALID', `${where}: a @WebSocket method has no request body to read; frames go through messageModel and the handlers it returns.`);
  }
  if (bodyModel && own.requestModel && bodyModel !== own.requestModel) {
    throw new TernError(
      'TERN_CONTROLLER_INVALID',
      `${where}: @Body() is typed ${modelName(bodyModel)} but the requestModel option is ${modelName(own.requestModel)}; keep one.`,
    );
  }

  // The method's decorators add to its route options (the controller's reach it in ready(), by the
  // table's rules); then the rest of the decorator's options (withOptions: a spread with more
  // keys after it is a slow dictionary, and this runs for every controller method).
  const decorated = inheritOptions(own, decoratorOptions(where, own.security, level));
  const options: RouteOptions = withOptions<RouteOptions>({
    summary: level.summary ?? own.summary,
    description: level.description ?? own.description,
    operationId: level.operationId ?? own.operationId,
    requestModel: bodyModel ?? own.requestModel,
    parameters: mergeParameters(own.parameters, compiledParams),
    consumes: routeConsumes(where, own.consumes, uploads.length > 0),
    multipart: routeMultipartOptions(own.multipart, uploads),
  }, decorated);
  withOptions(options, own);

  const definition = definedOnly(options) as RouteDefinition;
  definition.declaredIn = where;
  definition.path = decl.path;
  definition.methods = decl.methods;
  const handler = buildHandler(input.instance, input.fn, compiledParams, own.statusCode ?? 200);
  // A socket method's parameters resolve on the upgrade request, before the 101; what it returns are the handlers.
  let route: AnyRoutes;
  if (decl.socket) {
    route = new SocketRoutes(decl.path, definition as SocketOptions, handler as SocketSource);
  } else {
    definition.handler = handler;
    route = new Routes(definition, { checksInput: compiledParams.some((p) => p.canFail), uploads: uploads.length > 0 ? uploads : undefined });
  }
  if (level.replaceTags) keepAsDeclared(route, ['tags']);
  return route;
}

/**
 * The options without their undefined entries, as a new object: deleting keys instead would turn
 * each route's options into a slow dictionary-mode object (~1,000 of them at startup).
 */
function definedOnly(options: RouteOptions): RouteOptions {
  const out: Record<string, unknown> = {};
  for (const key in options) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = value;
  }
  return out as RouteOptions;
}

/** Declared `parameters` first; generated ones only for names the declared list does not cover. */
function mergeParameters(declared: ParameterObject[] | undefined, params: CompiledParam[]): ParameterObject[] | undefined {
  const out = [...(declared ?? [])];
  const seen = new Set(out.map((p) => `${p.in} ${p.name}`));
  for (const param of params) {
    for (const generated of param.openapi) {
      const key = `${generated.in} ${generated.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(generated);
    }
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The route handler: resolvers fill the arguments (every failure is collected into one 422),
 * then the method runs on its instance. A method of a 204 route may return nothing. The common
 * shapes (no parameters, only synchronous resolvers) add no async layer of their own.
 */
function buildHandler(instance: object, fn: Function, params: CompiledParam[], statusCode: number): Handler {
  const call: (args: unknown[], res: TernResponse) => Promise<HandlerResult> =
    statusCode === 204
      ? async (args, res) => {
          const result = await fn.apply(instance, args);
          return result === undefined ? res.json(null, 204) : result;
        }
      : (args) => fn.apply(instance, args);
  const n = params.length;
  if (n === 0) return statusCode === 204 ? (_req, res) => call([], res) : () => fn.call(instance);

  const resolvers = params.map((p) => p.resolve);
  const sync = !params.some((p) => p.async);
  // Most methods take one or two parameters: called directly, they cost what a plain handler
  // costs (no argument array, no apply), which the route benchmark can tell apart (~3%).
  if (sync && statusCode !== 204 && n <= 2) {
    const [first, second] = resolvers;
    if (n === 1) {
      return (req, res) => {
        const a = first(req, res);
        if (a instanceof ParamFailure) throw toProblem([a]);
        return fn.call(instance, a);
      };
    }
    return (req, res) => {
      const a = first(req, res);
      const b = second(req, res);
      if (a instanceof ParamFailure || b instanceof ParamFailure) {
        throw toProblem([a, b].filter((v): v is ParamFailure => v instanceof ParamFailure));
      }
      return fn.call(instance, a, b);
    };
  }
  if (sync) {
    return (req, res) => {
      const args = new Array(n);
      let failures: ParamFailure[] | undefined;
      for (let i = 0; i < n; i++) {
        const value = resolvers[i](req, res);
        if (value instanceof ParamFailure) (failures ??= []).push(value);
        else args[i] = value;
      }
      if (failures) throw toProblem(failures);
      return call(args, res);
    };
  }
  const awaits = params.map((p) => p.async);
  return async (req, res) => {
    const args = new Array(n);
    let failures: ParamFailure[] | undefined;
    for (let i = 0; i < n; i++) {
      let value = resolvers[i](req, res);
      if (awaits[i]) value = await value;
      if (value instanceof ParamFailure) (failures ??= []).push(value);
      else args[i] = value;
    }
    if (failures) throw toProblem(failures);
    return call(args, res);
  };
}

function toProblem(failures: ParamFailure[]) {
  const [first] = failures;
  const detail = failures.length === 1 ? first.detail : failures.map((f) => f.detail).join(' ');
  return requestError(first.code, detail, { errors: failures.flatMap((f) => f.errors) });
}
