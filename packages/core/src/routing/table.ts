import { STATUS_CODES } from 'node:http';
import { compose, toResponse, type Step } from '../middleware/compose';
import { frameworkError, RouteConflictError, TernError, type HTTPException } from '../errors';
import { declaredLengthExceeds, payloadTooLarge } from '../http/body';
import type { TernRequest } from '../http/request';
import { compileModel, type ValidationResult } from '../validation';
import type { Declaration } from './declarer';
import { Group } from './group';
import { compilePath, convertParam, joinPaths, matchPath, type CompiledPath } from './path';
import { createMatcher, type Matcher } from './matcher';
import { Router } from './router';
import { Routes } from './routes';
import { forwardTo } from './mount';
import type { Middleware, MiddlewareEntry, NodeListener, SecurityRequirement } from './types';

/** A route after `ready()`: everything a request needs, resolved once. */
export interface CompiledRoute {
  /** The declaration it came from. */
  readonly route: Routes<any>;
  /** The full path with every prefix composed, e.g. `/api/v1/users/{id:int}`. */
  readonly rawPath: string;
  readonly path: CompiledPath;
  readonly methods: string[];
  /** Full name, dotted with the names of the routers around it. */
  readonly name?: string;
  /** Container tags first, then the route's own, without duplicates. */
  readonly tags: string[];
  readonly excludeFromSchema: boolean;
  readonly security?: SecurityRequirement[];
  /** Container middleware (outer first) then the route's own. */
  readonly middleware: Middleware[];
  readonly statusCode: number;
  /** True for Tern's own routes (OpenAPI, docs): not listed by getAllRoutes. */
  readonly internal: boolean;
  /** Human-readable origin for error messages. */
  readonly source: string;
  /** Middleware, body checks, validation and handler in one function. */
  readonly dispatch: Step;
  /** Further matcher shapes this route serves (a mounted app also serves its bare prefix). */
  readonly extraShapes?: string[];
}

/** Where a declaration sits: what its containers contribute. */
interface Scope {
  prefixes: string[];
  middleware: Middleware[];
  tags: string[];
  names: string[];
  excludeFromSchema: boolean;
  trail: Set<Router | Group>;
}

export interface CompileOptions {
  bodyLimit: number;
  /** Marks the compiled routes as Tern's own. */
  internal?: boolean;
}

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Flattens the declaration tree into compiled routes, composing prefixes, tags, names and middleware. */
export function compileDeclarations(declarations: readonly Declaration[], options: CompileOptions): CompiledRoute[] {
  const out: CompiledRoute[] = [];
  const root: Scope = { prefixes: [], middleware: [], tags: [], names: [], excludeFromSchema: false, trail: new Set() };
  walk(declarations, root, options, out);
  return out;
}

function walk(declarations: readonly Declaration[], scope: Scope, options: CompileOptions, out: CompiledRoute[]): void {
  for (const declaration of declarations) {
    if (declaration instanceof Routes) {
      out.push(compileRoute(declaration, scope, options));
    } else if (declaration instanceof Router || declaration instanceof Group) {
      if (scope.trail.has(declaration)) {
        throw new TernError('TERN_ROUTER_CYCLE', `A router or group is mounted inside itself (prefix '${containerPath(declaration)}').`);
      }
      const inner = enterContainer(declaration, scope);
      if (declaration instanceof Group && declaration.app) out.push(compileMount(declaration.app, inner, options));
      walk(declaration instanceof Router ? declaration.declarations : declaration.routes, inner, options, out);
    } else {
      throw new TernError('TERN_INVALID_DECLARATION', `Expected Routes, Router or Group, got ${describe(declaration)}.`);
    }
  }
}

function containerPath(container: Router | Group): string {
  return container instanceof Router ? container.prefix : container.path;
}

function enterContainer(container: Router | Group, scope: Scope): Scope {
  const trail = new Set(scope.trail).add(container);
  if (container instanceof Router) {
    return {
      prefixes: [...scope.prefixes, container.prefix],
      middleware: [...scope.middleware, ...container.middleware],
      tags: [...scope.tags, ...container.tags],
      names: container.name ? [...scope.names, container.name] : scope.names,
      excludeFromSchema: scope.excludeFromSchema || container.excludeFromSchema,
      trail,
    };
  }
  return {
    ...scope,
    prefixes: [...scope.prefixes, container.path],
    middleware: [...scope.middleware, ...container.middleware.map((entry) => resolveEntry(entry, container.path))],
    excludeFromSchema: scope.excludeFromSchema || container.excludeFromSchema,
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

function compileRoute(route: Routes<any>, scope: Scope, options: CompileOptions): CompiledRoute {
  const o = route.options;
  const rawPath = joinPaths(scope.prefixes, route.path);
  const source = `${route.methods.join(',')} ${rawPath}${o.name ? ` (name '${o.name}')` : ''}`;
  const path = compilePath(rawPath, source);
  if (!route.handler) {
    throw new TernError('TERN_MISSING_HANDLER', `Route ${source} has no handler; a Routes object needs one before it is added to an app.`);
  }
  for (const method of route.methods) {
    if (!/^[A-Z]+$/.test(method)) throw new TernError('TERN_INVALID_ROUTE', `Route ${source}: '${method}' is not an HTTP method.`);
  }
  const middleware = [...scope.middleware, ...(o.middleware ?? [])];
  for (const m of middleware) {
    if (typeof m !== 'function') throw new TernError('TERN_INVALID_MIDDLEWARE', `Route ${source}: middleware must be functions.`);
  }
  const statusCode = o.statusCode ?? 200;
  const validator = o.requestModel ? compileModel(o.requestModel as new () => object) : undefined;
  const handler = route.handler;
  const { bodyLimit } = options;

  const terminal: Step = async (req, res) => {
    if (declaredLengthExceeds(req.raw, bodyLimit)) throw payloadTooLarge(bodyLimit);
    if (validator) req.body = await validateBody(req, validator);
    return toResponse(await handler(req, res, req.pathParams), res, 'handler', statusCode);
  };

  return {
    route,
    rawPath,
    path,
    methods: route.methods,
    name: o.name ? [...scope.names, o.name].join('.') : undefined,
    tags: [...new Set([...scope.tags, ...(o.tags ?? [])])],
    excludeFromSchema: scope.excludeFromSchema || o.excludeFromSchema === true,
    security: o.security,
    middleware,
    statusCode,
    internal: options.internal === true,
    source,
    dispatch: compose(middleware, terminal),
  };
}

async function validateBody(req: TernRequest, validator: (input: unknown) => ValidationResult<object> | Promise<ValidationResult<object>>): Promise<object> {
  if (!req.hasBody) {
    throw frameworkError(422, 'TERN_VALIDATION_FAILED', 'Request body is required.', {
      errors: [{ path: '', message: 'request body is required' }],
    });
  }
  const pending = validator(await req.json());
  // Compiled models answer synchronously; only the class-validator fallback returns a promise.
  const result = pending instanceof Promise ? await pending : pending;
  if (!result.ok) {
    throw frameworkError(422, 'TERN_VALIDATION_FAILED', 'Request body failed validation.', { errors: result.errors });
  }
  return result.value;
}

/** A Group's external app: every method, the prefix and everything below it, prefix stripped. */
function compileMount(listener: NodeListener, scope: Scope, options: CompileOptions): CompiledRoute {
  const prefix = joinPaths(scope.prefixes, '/');
  const forward = forwardTo(listener, prefix);
  const source = `Group '${prefix}' (mounted app)`;
  const route = new Routes({ path: `${prefix === '/' ? '' : prefix}/{path:path}`, methods: ALL_METHODS, handler: forward, excludeFromSchema: true });
  return {
    route,
    rawPath: route.path,
    path: compilePath(route.path, source),
    methods: ALL_METHODS,
    tags: scope.tags,
    excludeFromSchema: true,
    middleware: scope.middleware,
    statusCode: 200,
    internal: options.internal === true,
    source,
    dispatch: compose(scope.middleware, forward),
    // The bare prefix (no trailing slash) belongs to the mounted app too.
    extraShapes: prefix === '/' ? [] : [compilePath(prefix, source).matcherPath],
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}

/** What a request's lookup found: a route with its converted params, or the error to answer. */
export type Lookup =
  | { route: CompiledRoute; params: Record<string, unknown>; error?: undefined }
  | { route?: undefined; params?: undefined; error: HTTPException };

interface TableOptions {
  /** The longest decoded path parameter accepted (longer is a 414). */
  maxParamLength: number;
  debug: boolean;
}

/**
 * The flat table `ready()` builds: one matcher entry per method and path shape holding the routes
 * to try in declaration order, plus the name index for `urlFor`.
 */
export class RouteTable {
  readonly byName = new Map<string, CompiledRoute>();
  private readonly matcher: Matcher<CompiledRoute[]> = createMatcher();
  private readonly methods = new Set<string>();

  constructor(
    readonly routes: readonly CompiledRoute[],
    private readonly options: TableOptions,
  ) {
    this.checkConflicts();
    this.register();
  }

  private checkConflicts(): void {
    const byShape = new Map<string, CompiledRoute>();
    for (const route of this.routes) {
      for (const method of route.methods) {
        const key = `${method} ${route.path.conflictKey}`;
        const other = byShape.get(key);
        if (other) {
          throw new RouteConflictError(
            `Route conflict: ${route.source} and ${other.source} both answer ${method} ${route.rawPath}.`,
          );
        }
        byShape.set(key, route);
      }
      if (route.name) {
        const other = this.byName.get(route.name);
        if (other) throw new RouteConflictError(`Route name conflict: '${route.name}' is used by ${other.source} and ${route.source}.`);
        this.byName.set(route.name, route);
      }
    }
  }

  private register(): void {
    const shapes = new Map<string, CompiledRoute[]>();
    const add = (method: string, shape: string, route: CompiledRoute) => {
      const key = `${method} ${shape}`;
      let list = shapes.get(key);
      if (!list) {
        shapes.set(key, (list = []));
        this.matcher.add(method, shape, list);
        this.methods.add(method);
      }
      list.push(route);
    };
    for (const route of this.routes) {
      for (const method of route.methods) {
        add(method, route.path.matcherPath, route);
        for (const shape of route.extraShapes ?? []) add(method, shape, route);
      }
    }
  }

  /**
   * Every GET answers HEAD unless a HEAD route is declared for the path: HEAD looks in its own
   * routes first, then in GET's. Registering a HEAD copy of each GET instead would double the
   * matcher's startup work for a method few clients send.
   */
  private find(method: string, path: string) {
    let hit = this.matcher.find(method, path);
    if (!hit && method === 'HEAD') hit = this.matcher.find('GET', path);
    return hit;
  }

  /** Finds the route for a request; never throws, returns the error to answer instead. */
  lookup(method: string, path: string): Lookup {
    if (hasDotSegment(path)) {
      return { error: frameworkError(400, 'TERN_BAD_PATH', "Paths with '.' or '..' segments are not accepted.") };
    }
    let hit;
    try {
      hit = this.find(method, path);
    } catch {
      hit = null;
    }
    if (!hit) return { error: this.missError(method, path) };
    const candidates = hit.store;
    const raw = hit.params;
    let firstFailure: { param: string; message: string } | undefined;
    const reasons: string[] = [];
    for (let c = 0; c < candidates.length; c++) {
      const route = candidates[c];
      const specs = route.path.params;
      const params: Record<string, unknown> = {};
      let failed = false;
      for (let i = 0; i < specs.length; i++) {
        const spec = specs[i];
        const value = spec.converterName === 'path' ? (raw['*'] ?? '') : (raw[`p${i}`] as string);
        if (value.length > this.options.maxParamLength) {
          return {
            error: frameworkError(414, 'TERN_PARAM_TOO_LONG', `Path parameter '${spec.name}' is longer than ${this.options.maxParamLength} characters.`),
          };
        }
        const message = convertParam(spec, value, params);
        if (message !== undefined) {
          firstFailure ??= { param: spec.name, message };
          reasons.push(`${route.source}: ${message}`);
          failed = true;
          break;
        }
      }
      if (!failed) return { route, params };
    }
    const failure = firstFailure as { param: string; message: string };
    return {
      error: frameworkError(422, 'TERN_INVALID_PATH_PARAM', failure.message, {
        errors: [{ path: failure.param, message: failure.message }],
        debugReasons: this.options.debug ? reasons : undefined,
      }),
    };
  }

  /** 400 for undecodable paths, 405 with Allow when another method matches, else 404. */
  private missError(method: string, path: string): HTTPException {
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        return frameworkError(400, 'TERN_BAD_URL', 'The request path has malformed percent-encoding.');
      }
    }
    const allowed: string[] = [];
    for (const other of this.methods) {
      if (other !== method && this.matcher.find(other, path)) allowed.push(other);
    }
    if (allowed.includes('GET') && !allowed.includes('HEAD') && method !== 'HEAD') allowed.push('HEAD');
    if (allowed.length > 0) {
      allowed.sort();
      return frameworkError(405, 'TERN_METHOD_NOT_ALLOWED', `Method ${method} is not allowed for ${path}; allowed: ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
        debugReasons: this.options.debug ? this.explain(method, path) : undefined,
      });
    }
    return frameworkError(404, 'TERN_NOT_FOUND', `No route matches ${path}.`, {
      debugReasons: this.options.debug ? this.explain(method, path) : undefined,
    });
  }

  /** Debug only: why each route did not serve the request. Slow on purpose: it runs on errors. */
  private explain(method: string, path: string): string[] {
    const reasons: string[] = [];
    for (const route of this.routes) {
      if (route.internal) continue;
      const { failure } = matchPath(route.path, path);
      if (failure) reasons.push(`${route.source}: ${failure.message}`);
      else if (!route.methods.includes(method)) reasons.push(`${route.source}: method ${method} is not accepted`);
      if (reasons.length >= 50) break;
    }
    return reasons;
  }
}

function hasDotSegment(path: string): boolean {
  if (!path.includes('/.') && !/%2e/i.test(path)) return false;
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}

export function statusTitle(status: number): string {
  return STATUS_CODES[status] ?? 'Error';
}
