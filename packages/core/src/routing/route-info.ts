import type { MatchedRoute } from '../http/matched-route';
import type { ModelValidator } from '../validation/types';
import type { CompiledPath, PathParam } from './path';
import type { RouteSpec } from './route-options';
import type { AnyRoutes } from './routes';
import type { UploadField } from './types';
import { modelName, isStandardSchema } from '../validation/standard-schema';

export type { HandlerInput, UploadField } from './types';

/** What `describeRoute` reads of a compiled route (`routing/compile.ts` `CompiledRoute` has it all). */
export interface DescribedRoute {
  readonly rawPath: string;
  readonly path: CompiledPath;
  readonly name?: string;
  readonly tags: readonly string[];
  readonly spec: RouteSpec;
  readonly source: string;
  readonly declaration: AnyRoutes;
  readonly excludeFromSchema: boolean;
  readonly validator?: ModelValidator<object>;
  /** A socket route (`SocketRoutes`). */
  readonly websocket?: boolean;
}

/** One path parameter of a route: its name, the converter that checks it and the values it accepts. */
export interface RouteParamInfo {
  readonly name: string;
  readonly converter: string;
  /** The JSON Schema of the values the converter accepts (its `openapi`, else a string with its pattern). */
  readonly schema: Readonly<Record<string, unknown>>;
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
  /** The route's options as the options table checked them, with what its containers and the app give it (tags, middleware, security, …) applied; prefixes and names are `rawPath` and `name`. */
  readonly options: RouteSpec;
  readonly excludeFromSchema: boolean;
  readonly params: readonly RouteParamInfo[];
  /** The full path with each parameter written `{}` (`/users/{}/posts`): routes of one shape share an OpenAPI path. */
  readonly pathShape: string;
  /** The request model and how it is validated, when the route has one. */
  readonly requestModel?: RouteModelInfo;
  /** True when something can refuse the request's input with a 422: a request model, a narrowing converter, a controller's typed parameters. */
  readonly checksInput: boolean;
  /** The file fields its handler reads (controllers' upload decorators), when it reads any. */
  readonly uploads?: readonly UploadField[];
  /** True for a socket route (`app.ws`, `@WebSocket`): the AsyncAPI document describes it, the OpenAPI one does not. */
  readonly websocket: boolean;
}

/**
 * A route's request model as compiled: `native` is false when the model runs through
 * class-transformer + class-validator per request, and `fallbackReasons` says why.
 */
export interface RouteModelInfo {
  readonly name: string;
  readonly native: boolean;
  readonly fallbackReasons: readonly string[];
  /** `forbidUnknownProperties` applies (route, controller or app): a property the model does not declare is a 422. */
  readonly forbidsUnknownProperties: boolean;
}

/** Converters that accept every value their segment can hold: they never answer 422. */
const ACCEPT_ALL = new Set(['str', 'path']);

export function describeRoute(route: DescribedRoute, forbidsUnknownProperties = false): RouteInfo {
  return Object.freeze({
    rawPath: route.rawPath,
    template: route.path.template,
    methods: route.spec.methods as string[],
    name: route.name,
    tags: route.tags,
    security: route.spec.security,
    statusCode: route.spec.statusCode ?? 200,
    source: route.source,
    extra: route.declaration.extra,
    options: route.spec,
    excludeFromSchema: route.excludeFromSchema,
    params: paramList(route.path.params),
    pathShape: route.path.shape,
    requestModel:
      route.spec.requestModel && route.validator
        ? Object.freeze({
            name: modelName(route.spec.requestModel),
            native: route.validator.native,
            fallbackReasons: route.validator.fallbackReasons,
            // A Standard Schema's library decides what undeclared keys do; the flag does not reach it.
            forbidsUnknownProperties: forbidsUnknownProperties && !isStandardSchema(route.spec.requestModel),
          })
        : undefined,
    checksInput:
      route.spec.requestModel !== undefined || route.spec.query !== undefined || route.declaration.handlerInput?.checksInput === true || route.path.params.some((p) => !ACCEPT_ALL.has(p.converterName)),
    uploads: route.declaration.handlerInput?.uploads,
    websocket: route.websocket === true,
  });
}

/** Each parameter's description, made once: routes that share a parameter (see ParamCache) share it. */
const paramInfos = new WeakMap<PathParam, RouteParamInfo>();
/** The frozen list of a route whose one parameter is `param`: shared the same way. */
const singleParamLists = new WeakMap<PathParam, readonly RouteParamInfo[]>();
const NO_PARAMS: readonly RouteParamInfo[] = Object.freeze([]);

function paramList(params: readonly PathParam[]): readonly RouteParamInfo[] {
  if (params.length === 0) return NO_PARAMS;
  if (params.length > 1) return Object.freeze(params.map(paramInfo));
  let list = singleParamLists.get(params[0]);
  if (!list) singleParamLists.set(params[0], (list = Object.freeze([paramInfo(params[0])])));
  return list;
}

function paramInfo(param: PathParam): RouteParamInfo {
  let info = paramInfos.get(param);
  if (!info) paramInfos.set(param, (info = Object.freeze({ name: param.name, converter: param.converterName, schema: converterSchema(param) })));
  return info;
}

/** The converter's declared schema; a custom one without it is a string with its pattern. */
function converterSchema(param: PathParam): Readonly<Record<string, unknown>> {
  const declared = param.convertor.openapi;
  if (declared && typeof declared === 'object') return declared as Record<string, unknown>;
  return Object.freeze({ type: 'string', pattern: `^(?:${param.convertor.regex})$` });
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
