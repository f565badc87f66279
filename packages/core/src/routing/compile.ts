/**
 * Declarations → compiled routes: the work `app.ready()` does once per route (prefixes, names,
 * what containers give their routes, converters bound), so nothing walks the declaration tree
 * per request. What a container's options mean for its routes is the route options table's
 * (`inheritOptions`); this file only walks the tree.
 */
import { TernError } from '../errors';
import type { TernRequest } from '../http/request';
import type { MatchedRoute } from '../http/matched-route';
import type { TernResponse } from '../http/response';
import { Group } from './group';
import { forwardTo, type MountErrorReporter } from './mount';
import { compilePath, joinPaths, type CompiledPath, type ParamCache } from './path';
import { Router, type Declaration } from './router';
import { Routes, type AnyRoutes } from './routes';
import { describeRoute, type RouteInfo } from './route-info';
import { inheritOptions, routeSpec, SOCKET_ONLY_OPTIONS, type RouteSpec } from './route-options';
import { SocketRoutes } from './socket-route';
import type { Handler, InheritedRouteOptions, Middleware, MiddlewareEntry, NodeListener } from './types';
import type { ModelClass, ModelCompiler } from '../validation/model-compiler';
import type { ModelValidator, ValidationResult } from '../validation/types';
import { compileStandardSchema, isStandardSchema, queryInput, type StandardSchemaV1 } from '../validation/standard-schema';

/**
 * A route after `ready()`: its declaration with every container's contribution resolved. Data
 * only; the request pipeline turns it into a served route (`pipeline/serve.ts`).
 */
export interface CompiledRoute extends Pick<MatchedRoute, 'rawPath' | 'name' | 'tags' | 'source'> {
  /** What plugins, `getAllRoutes()` and `req.route` see of this route: its methods and success status too, read from the spec. */
  readonly info: RouteInfo;
  /** A socket route (`SocketRoutes`): served by `realtime/`, described by the AsyncAPI document. */
  readonly websocket?: boolean;
  /** The declaration it came from. */
  readonly declaration: AnyRoutes;
  /** Its options as the options table checked them: what every consumer reads. */
  readonly spec: RouteSpec;
  readonly path: CompiledPath;
  readonly excludeFromSchema: boolean;
  /** Container middleware (outer first) then the route's own. */
  readonly middleware: readonly Middleware[];
  readonly handler: Handler;
  /** The request model's (`spec.requestModel`) validator, compiled once here. */
  readonly validator?: ModelValidator<object>;
  /** The `query` schema's reader: the query string shaped and validated, compiled once here. */
  readonly queryValidator?: QueryValidator;
  /** True for Tern's own routes (OpenAPI, docs): not listed by getAllRoutes. */
  readonly internal: boolean;
  /** For a Group's mounted Node listener: the forwarding step that replaces handler and body checks. */
  readonly mount?: (req: TernRequest, res: TernResponse, report: MountErrorReporter) => Promise<TernResponse>;
  /** Further matcher shapes this route serves (a mounted app also serves its bare prefix). */
  readonly extraShapes?: readonly string[];
}

/** Where a declaration sits: its containers' prefixes and names, and the route options they give (combined, outermost first). */
interface Scope {
  prefixes: string[];
  names: string[];
  inherited: Readonly<InheritedRouteOptions>;
  trail: Set<Router | Group>;
}

export interface CompileOptions {
  /** Marks the compiled routes as Tern's own. */
  internal?: boolean;
  /** Compiles request models: the app's compiler, passed by the app (Tern's own routes have none). */
  modelCompiler?: ModelCompiler;
  /** The app's default for routes that do not set `forbidUnknownProperties` (`MakeConfig`): below every level. */
  forbidUnknownProperties?: boolean;
  /** The route options the app gives every route (`new TernApp({ security })`): the outermost level of inheritance. */
  inherited?: Readonly<InheritedRouteOptions>;
  /** Called with each request model before it is compiled (the app warns about models without rules). */
  checkModel?: (model: Function, where: string) => void;
  /** The app's global prefix (`new TernApp({ prefix })`): the outermost prefix of every route. */
  prefix?: string;
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Flattens the declaration tree into compiled routes, composing prefixes, tags, names and middleware. */
export function compileDeclarations(declarations: readonly Declaration[], options: CompileOptions = {}): CompiledRoute[] {
  const out: CompiledRoute[] = [];
  const root: Scope = { prefixes: options.prefix ? [options.prefix] : [], names: [], inherited: options.inherited ?? NOTHING_INHERITED, trail: new Set() };
  walk(declarations, root, options, out, new Map());
  return out;
}

function walk(declarations: readonly Declaration[], scope: Scope, options: CompileOptions, out: CompiledRoute[], params: ParamCache): void {
  for (const declaration of declarations) {
    if (declaration instanceof Routes) {
      out.push(compileRoute(declaration, scope, options, params));
    } else if (declaration instanceof Router || declaration instanceof Group) {
      if (scope.trail.has(declaration)) {
        throw new TernError('TERN_ROUTER_CYCLE', `A router or group is mounted inside itself (prefix '${containerPath(declaration)}').`);
      }
      const inner = enterContainer(declaration, scope);
      if (declaration instanceof Group && declaration.app) out.push(compileMount(declaration.app, inner, options));
      walk(declaration instanceof Router ? declaration.declarations : declaration.routes, inner, options, out, params);
    } else {
      throw new TernError('TERN_INVALID_DECLARATION', `Expected Routes, Router or Group, got ${describe(declaration)}.`);
    }
  }
}

function containerPath(container: Router | Group): string {
  return container instanceof Router ? container.prefix : container.path;
}

const NOTHING_INHERITED: Readonly<InheritedRouteOptions> = Object.freeze({});

function enterContainer(container: Router | Group, scope: Scope): Scope {
  const trail = new Set(scope.trail).add(container);
  if (container instanceof Router) {
    return {
      prefixes: [...scope.prefixes, container.prefix],
      names: container.name ? [...scope.names, container.name] : scope.names,
      inherited: inheritOptions(scope.inherited, container.inherited),
      trail,
    };
  }
  // A group's middleware entries (factories too) become functions now, once per mount.
  const middleware = container.middleware.length > 0 ? container.middleware.map((entry) => resolveEntry(entry, container.path)) : undefined;
  return {
    ...scope,
    prefixes: [...scope.prefixes, container.path],
    inherited: inheritOptions(scope.inherited, { ...container.inherited, middleware }),
    trail,
  };
}

function resolveEntry(entry: MiddlewareEntry, where: string): Middleware {
  if (typeof entry === 'function') return entry;
  if (Array.isArray(entry) && typeof entry[0] === 'function') {
    const built = entry[0](entry[1] ?? {}, entry[2] ?? {});
    if (typeof built === 'function') return built;
  }
  throw new TernError(
    'TERN_INVALID_MIDDLEWARE',
    `Group '${where}': a middleware entry must be a function or [factory, args, options] whose factory returns one.`,
  );
}

function compileRoute(route: AnyRoutes, scope: Scope, options: CompileOptions, params: ParamCache): CompiledRoute {
  const declared = route.options;
  const rawPath = joinPaths(scope.prefixes, route.path);
  const methods = Array.isArray(route.methods) ? (route.methods.length === 1 ? route.methods[0] : route.methods.join(',')) : route.methods == null ? '' : String(route.methods);
  const source = `${methods === '' ? rawPath : `${methods} ${rawPath}`}${declared.name ? ` (name '${String(declared.name)}')` : ''}${declared.declaredIn ? ` in ${String(declared.declaredIn)}` : ''}`;
  // A socket route's options (security, middleware, tags…) inherit from its containers like any route's.
  const o = routeSpec(declared, `Route ${source}`, route.methods, scope.inherited, route);
  const socket = route instanceof SocketRoutes;
  const socketOnly = socket ? undefined : SOCKET_ONLY_OPTIONS.find((name) => (o as Readonly<Record<string, unknown>>)[name] !== undefined);
  if (socketOnly !== undefined) throw new TernError('TERN_INVALID_ROUTE_OPTION', `Route ${source}: ${socketOnly} is an option of socket routes (app.ws); an HTTP route cannot set it.`);
  const path = compilePath(rawPath, source, params);
  if (!route.handler) {
    throw new TernError('TERN_MISSING_HANDLER', `Route ${source} has no handler; a Routes object needs one before it is added to an app.`);
  }
  const middleware = o.middleware ?? NO_MIDDLEWARE;
  const forbidNonWhitelisted = (o.forbidUnknownProperties ?? options.forbidUnknownProperties) === true;
  return finish({
    declaration: route,
    spec: o,
    rawPath,
    path,
    name: o.name ? [...scope.names, o.name].join('.') : undefined,
    tags: o.tags ?? NO_TAGS,
    // A socket route is described by the AsyncAPI document, not the OpenAPI one.
    excludeFromSchema: socket || o.excludeFromSchema === true,
    websocket: socket,
    middleware,
    handler: route.handler,
    validator: o.requestModel ? compileRequestModel(o.requestModel, forbidNonWhitelisted, source, options) : undefined,
    queryValidator: o.query ? compileQuery(o.query) : undefined,
    internal: options.internal === true,
    source,
  }, forbidNonWhitelisted);
}

const NO_TAGS: readonly string[] = Object.freeze([]);
const NO_MIDDLEWARE: readonly Middleware[] = Object.freeze([]);

function compileRequestModel(model: Function | StandardSchemaV1, forbidNonWhitelisted: boolean, source: string, options: CompileOptions): ModelValidator<object> {
  // A Standard Schema is validated by its own library, which also decides what undeclared keys do.
  if (isStandardSchema(model)) return compileStandardSchema(model as StandardSchemaV1<unknown, object>);
  options.checkModel?.(model, source);
  if (options.modelCompiler === undefined) throw new TernError('TERN_INVALID_ROUTE', `Route ${source}: request models need the app's model compiler.`);
  return options.modelCompiler.compile(model as ModelClass, { forbidNonWhitelisted });
}

/** Turns `req.queryParams.toObject()` into the schema's answer. */
export type QueryValidator = (query: Record<string, string | string[]>) => ValidationResult<unknown> | Promise<ValidationResult<unknown>>;

function compileQuery(schema: StandardSchemaV1): QueryValidator {
  const validate = compileStandardSchema(schema);
  const prepare = queryInput(schema);
  return (query) => validate(prepare(query));
}

/**
 * Gives a compiled route its read-only description. Added to the object rather than spread into
 * a new one: a copy with one more key was a dictionary-mode object, ~450 bytes more per route
 * for the life of the app.
 */
function finish(route: Omit<CompiledRoute, 'info'>, forbidsUnknown = false): CompiledRoute {
  (route as { info?: RouteInfo }).info = describeRoute(route, forbidsUnknown);
  return route as CompiledRoute;
}

/** A Group's external app: every method, the prefix and everything below it, prefix stripped. */
function compileMount(listener: NodeListener, scope: Scope, options: CompileOptions): CompiledRoute {
  const prefix = joinPaths(scope.prefixes, '/');
  const forward = forwardTo(listener, prefix);
  const source = `Group '${prefix}' (mounted app)`;
  const declaration = new Routes({ path: `${prefix === '/' ? '' : prefix}/{path:path}`, methods: ALL_METHODS, excludeFromSchema: true });
  // Its containers' options apply as to any route of theirs: security for enforceSecurity, rateLimit, middleware, tags.
  const spec = routeSpec(declaration.options, source, declaration.methods, scope.inherited, declaration);
  return finish({
    declaration,
    spec,
    rawPath: declaration.path,
    path: compilePath(declaration.path, source),
    tags: spec.tags ?? NO_TAGS,
    excludeFromSchema: true,
    middleware: spec.middleware ?? NO_MIDDLEWARE,
    handler: unreachable,
    internal: options.internal === true,
    source,
    mount: forward,
    // The bare prefix (no trailing slash) belongs to the mounted app too.
    extraShapes: prefix === '/' ? [] : [compilePath(prefix, source).matcherPath],
  });
}

/** A mount's handler: never called, its `mount` step answers instead. */
const unreachable: Handler = () => Promise.reject(new Error('A mounted app route has no handler of its own.'));

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}
