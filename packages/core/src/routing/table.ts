import { RouteConflictError, type HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import type { CompiledRoute } from './compile';
import { convertParam, matchPath } from './path';
import { createMatcher, type Matcher } from './matcher';

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
      return { error: requestError('TERN_BAD_PATH', "Paths with '.' or '..' segments are not accepted.") };
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
            error: requestError('TERN_PARAM_TOO_LONG', `Path parameter '${spec.name}' is longer than ${this.options.maxParamLength} characters.`),
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
      error: requestError('TERN_INVALID_PATH_PARAM', failure.message, {
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
        return requestError('TERN_BAD_URL', 'The request path has malformed percent-encoding.');
      }
    }
    const allowed: string[] = [];
    for (const other of this.methods) {
      if (other !== method && this.matcher.find(other, path)) allowed.push(other);
    }
    if (allowed.includes('GET') && !allowed.includes('HEAD') && method !== 'HEAD') allowed.push('HEAD');
    if (allowed.length > 0) {
      allowed.sort();
      return requestError('TERN_METHOD_NOT_ALLOWED', `Method ${method} is not allowed for ${path}; allowed: ${allowed.join(', ')}.`, {
        headers: { allow: allowed.join(', ') },
        debugReasons: this.options.debug ? this.explain(method, path) : undefined,
      });
    }
    return requestError('TERN_NOT_FOUND', `No route matches ${path}.`, {
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
