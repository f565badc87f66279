import { RouteConflictError, type HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import { hasDecodedDotSegment } from './dot-segments';
import type { CompiledRoute } from './compile';
import { convertParam, matchPath } from './path';
import { shortPath } from './short-path';
import { isPageRoute } from './page-route';
import { createMatcher, type Matcher } from './matcher';

/** What a request's lookup found: a route with its converted params, or the error to answer. */
export type Lookup<R extends CompiledRoute = CompiledRoute> =
  | { route: R; params: Record<string, unknown>; error?: undefined }
  | { route?: undefined; params?: undefined; error: HTTPException; target?: R };

interface TableOptions {
  /** The longest decoded path parameter accepted (longer is a 414). */
  maxParamLength: number;
  debug: boolean;
}

/**
 * The flat table `ready()` builds: one matcher entry per method and path shape holding the routes
 * to try in declaration order, plus the name index for `urlFor`.
 */
export class RouteTable<R extends CompiledRoute = CompiledRoute> {
  readonly byName = new Map<string, R>();
  private readonly matcher: Matcher<R[]> = createMatcher();
  private readonly methods = new Set<string>();

  constructor(
    readonly routes: readonly R[],
    private readonly options: TableOptions,
  ) {
    this.checkConflicts();
    this.register();
  }

  private checkConflicts(): void {
    // A map per method keyed by the path's own conflict key: no `${method} ${key}` string per route.
    const byMethod = new Map<string, Map<string, R>>();
    for (const route of this.routes) {
      for (const method of route.info.methods) {
        let byShape = byMethod.get(method);
        if (!byShape) byMethod.set(method, (byShape = new Map()));
        const other = byShape.get(route.path.conflictKey);
        if (other) {
          throw new RouteConflictError(
            `Route conflict: ${route.source} and ${other.source} both answer ${method} ${route.rawPath}.`,
          );
        }
        byShape.set(route.path.conflictKey, route);
      }
      if (route.name) {
        const other = this.byName.get(route.name);
        if (other) throw new RouteConflictError(`Route name conflict: '${route.name}' is used by ${other.source} and ${route.source}.`);
        this.byName.set(route.name, route);
      }
    }
  }

  private register(): void {
    const byMethod = new Map<string, Map<string, R[]>>();
    const add = (method: string, shape: string, route: R) => {
      let shapes = byMethod.get(method);
      if (!shapes) byMethod.set(method, (shapes = new Map()));
      const list = shapes.get(shape);
      if (list) {
        list.push(route);
        return;
      }
      // A list of one, sized so (most shapes have one route); a second route grows it.
      const one = [route];
      shapes.set(shape, one);
      this.matcher.add(method, shape, one);
      this.methods.add(method);
    };
    for (const route of this.routes) {
      for (const method of route.info.methods) {
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
  lookup(method: string, path: string): Lookup<R> {
    if (hasDotSegment(path)) return { error: badPath() };
    let hit;
    try {
      hit = this.find(method, path);
    } catch {
      hit = null;
    }
    if (!hit) return { error: this.missError(method, path) };
    const candidates = hit.store;
    let firstFailure: { param: string; message: string; route: R } | undefined;
    const reasons: string[] = [];
    for (let c = 0; c < candidates.length; c++) {
      const route = candidates[c];
      const outcome = this.convert(route, hit.params);
      // Every candidate has this shape: an empty segment fails them all alike.
      if (outcome === NO_MATCH) return { error: this.missError(method, path) };
      if ('params' in outcome) return { route, params: outcome.params };
      if ('error' in outcome) return outcome;
      firstFailure ??= { ...outcome, route };
      reasons.push(`${route.source}: ${outcome.message}`);
    }
    // `DELETE /notes/export` against `DELETE /notes/{id:int}` and `GET /notes/export`: the path
    // is another method's, so the answer is that method's 405, not this route's converter 422.
    const allowed = this.allowedMethods(method, path);
    if (allowed.length > 0) return { error: this.methodNotAllowed(method, path, allowed) };
    const failure = firstFailure as { param: string; message: string; route: R };
    // On a page, a value its converter refuses names a page that does not exist: the site's 404.
    if (candidates.every(isPageRoute)) return { error: this.missError(method, path) };
    return {
      error: requestError('TERN_INVALID_PATH_PARAM', failure.message, {
        errors: [{ path: failure.param, message: failure.message }],
        debugReasons: this.options.debug ? reasons : undefined,
      }),
      // The request names this route (method and path shape) but its value is refused: guards
      // of the route (enforceSecurity) must decide before the 422 tells what the route expects.
      target: failure.route,
    };
  }

  /**
   * Runs a route's converters over the matched values: its params, its first failure, a 400 for a
   * decoded dot segment, a 414, or NO_MATCH when a plain parameter matched an empty segment
   * (`/items/` against `/items/{id}`: trailing slashes are strict, so that is no value at all).
   */
  private convert(
    route: R,
    raw: Record<string, string | undefined>,
  ): { params: Record<string, unknown> } | { param: string; message: string } | { error: HTTPException } | typeof NO_MATCH {
    const specs = route.path.params;
    const params: Record<string, unknown> = {};
    for (let i = 0; i < specs.length; i++) {
      const spec = specs[i];
      const isPath = spec.converterName === 'path';
      const value = isPath ? (raw['*'] ?? '') : (raw[`p${i}`] as string);
      if (value === '' && !isPath) return NO_MATCH;
      if (value.includes('.') && hasDecodedDotSegment(value)) return { error: badPath() };
      // Characters as JSON Schema's `maxLength` counts them (code points), so the documented bound is exact.
      if (value.length > this.options.maxParamLength && codePoints(value) > this.options.maxParamLength) {
        return {
          error: requestError('TERN_PARAM_TOO_LONG', `Path parameter '${spec.name}' is longer than ${this.options.maxParamLength} characters.`),
        };
      }
      const message = convertParam(spec, value, params);
      if (message !== undefined) return { param: spec.name, message };
    }
    return { params };
  }

  /** 400 for undecodable paths, 405 with Allow when another method's route accepts the path, else 404. */
  private missError(method: string, path: string): HTTPException {
    if (path.includes('%')) {
      try {
        decodeURIComponent(path);
      } catch {
        return requestError('TERN_BAD_URL', 'The request path has malformed percent-encoding.');
      }
    }
    const allowed = this.allowedMethods(method, path);
    if (allowed.length > 0) return this.methodNotAllowed(method, path, allowed);
    return requestError('TERN_NOT_FOUND', `No route matches ${shortPath(path)}.`, {
      debugReasons: this.options.debug ? this.explain(method, path) : undefined,
    });
  }

  /** The other methods whose routes serve `path`, sorted (HEAD with GET): the `Allow` of a 405. */
  private allowedMethods(method: string, path: string): string[] {
    const allowed: string[] = [];
    for (const other of this.methods) {
      if (other !== method && this.accepts(other, path)) allowed.push(other);
    }
    if (allowed.includes('GET') && !allowed.includes('HEAD') && method !== 'HEAD') allowed.push('HEAD');
    return allowed.sort();
  }

  private methodNotAllowed(method: string, path: string, allowed: string[]): HTTPException {
    return requestError('TERN_METHOD_NOT_ALLOWED', `Method ${method} is not allowed for ${shortPath(path)}; allowed: ${allowed.join(', ')}.`, {
      headers: { allow: allowed.join(', ') },
      debugReasons: this.options.debug ? this.explain(method, path) : undefined,
    });
  }

  /** Whether a route of `method` would serve `path`, converters included (for `Allow`). */
  private accepts(method: string, path: string): boolean {
    let hit;
    try {
      hit = this.matcher.find(method, path);
    } catch {
      return false;
    }
    return hit !== null && hit.store.some((route) => {
      const outcome = this.convert(route, hit.params);
      return outcome !== NO_MATCH && 'params' in outcome;
    });
  }

  /** Debug only: why each route did not serve the request. Slow on purpose: it runs on errors. */
  private explain(method: string, path: string): string[] {
    const reasons: string[] = [];
    for (const route of this.routes) {
      if (route.internal) continue;
      const { failure } = matchPath(route.path, path);
      if (failure) reasons.push(`${route.source}: ${failure.message}`);
      else if (!route.info.methods.includes(method)) reasons.push(`${route.source}: method ${method} is not accepted`);
      if (reasons.length >= 50) break;
    }
    return reasons;
  }
}

const NO_MATCH = Symbol('no match');

function badPath(): HTTPException {
  return requestError('TERN_BAD_PATH', "Paths with '.' or '..' segments are not accepted.");
}

function hasDotSegment(path: string): boolean {
  if (!path.includes('/.') && !/%2e/i.test(path)) return false;
  return /(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path);
}

/** The number of code points in `text` (a surrogate pair is one character). */
function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
