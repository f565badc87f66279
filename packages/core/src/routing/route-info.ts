import type { MatchedRoute } from '../http/matched-route';
import type { CompiledRoute } from './compile';
import type { RouteOptions, SecurityRequirement } from './types';

/** One path parameter of a route: its name and the converter that checks it. */
export interface RouteParamInfo {
  readonly name: string;
  readonly converter: string;
}

/**
 * A compiled route as plugins and tools see it: what `app.getAllRoutes()` lists, what `onReady`
 * hooks receive, and (as its `MatchedRoute` part) what `req.route` is. Read-only: it carries no
 * dispatch closure, and changing it could not change how the route is served.
 *
 * @example
 * app.onReady((routes) => {
 *   for (const route of routes) console.log(route.methods.join(','), route.rawPath, route.params.map((p) => p.converter));
 * });
 */
export interface RouteInfo extends MatchedRoute {
  readonly security?: readonly Readonly<SecurityRequirement>[];
  /** The options the route was declared with (prefixes, tags and names not yet composed). */
  readonly options: Readonly<RouteOptions>;
  readonly excludeFromSchema: boolean;
  readonly params: readonly RouteParamInfo[];
  /** The request model and how it is validated, when the route has one. */
  readonly requestModel?: RouteModelInfo;
}

/**
 * A route's request model as compiled: `native` is false when the model runs through
 * class-transformer + class-validator per request, and `fallbackReasons` says why.
 */
export interface RouteModelInfo {
  readonly name: string;
  readonly native: boolean;
  readonly fallbackReasons: readonly string[];
}

/** The compiled route behind each RouteInfo this process made; read at startup only (OpenAPI). */
const compiledByInfo = new WeakMap<RouteInfo, CompiledRoute>();

export function describeRoute(route: Omit<CompiledRoute, 'info'>): RouteInfo {
  return Object.freeze({
    rawPath: route.rawPath,
    template: routeTemplate(route.rawPath),
    methods: route.methods,
    name: route.name,
    tags: route.tags,
    security: route.declaration.options.security,
    statusCode: route.statusCode,
    source: route.source,
    extra: route.declaration.extra,
    options: route.declaration.options,
    excludeFromSchema: route.excludeFromSchema,
    params: Object.freeze(route.path.params.map((p) => Object.freeze({ name: p.name, converter: p.converterName }))),
    requestModel:
      route.requestModel && route.validator
        ? Object.freeze({ name: route.requestModel.name, native: route.validator.native, fallbackReasons: route.validator.fallbackReasons })
        : undefined,
  });
}

/** `/users/{id:int}/{rest:path}` → `/users/{id}/{rest}`: the document's form of a path. */
function routeTemplate(rawPath: string): string {
  return rawPath.replace(/\{([^}:]+):[^}]*\}/g, '{$1}');
}

export function linkInfo(route: CompiledRoute): CompiledRoute {
  compiledByInfo.set(route.info, route);
  return route;
}

/**
 * The compiled route a RouteInfo describes, for startup-time builders (the OpenAPI document);
 * undefined for an object this app did not hand out.
 */
export function compiledRouteOf(info: RouteInfo): CompiledRoute | undefined {
  return compiledByInfo.get(info);
}

/**
 * Debug mode's startup note: which request models run through class-validator per request
 * instead of compiled checks, and why; undefined when every model is compiled.
 */
export function describeFallbacks(routes: readonly RouteInfo[]): string | undefined {
  const lines = routes
    .filter((route) => route.requestModel && !route.requestModel.native)
    .map((route) => `  ${route.source}: ${route.requestModel?.name} (${route.requestModel?.fallbackReasons.join('; ')})`);
  if (lines.length === 0) return undefined;
  return `[tern] ${lines.length} request model(s) are validated by class-validator per request instead of compiled checks:\n${lines.join('\n')}`;
}
