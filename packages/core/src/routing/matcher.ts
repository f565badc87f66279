import FindMyWay from 'find-my-way';

/** What a lookup finds: the value stored for the shape and the raw parameter values by position. */
export interface MatcherHit<T> {
  store: T;
  /** Plain parameters as `p0`, `p1`…; a `path` parameter as `*`. Already percent-decoded. */
  params: Record<string, string | undefined>;
}

/**
 * The two-method interface the rest of Tern sees. find-my-way matches every shape with a
 * parameter; it only matches shapes, converters run afterwards so a rejected value can be a 422
 * rather than a 404.
 */
export interface Matcher<T> {
  add(method: string, shape: string, store: T): void;
  find(method: string, path: string): MatcherHit<T> | null;
}

/** The params of a static hit: none, and never written to (each request converts into its own object). */
const NO_PARAMS: Record<string, string | undefined> = Object.freeze({});

/**
 * find-my-way's `searchParams`, which Tern never reads: the pipeline splits the query off before
 * matching (`pipeline/target.ts`) and `TernRequest.queryParams` parses it on first use. Without
 * a parser of its own, find-my-way would allocate an object on every match and load
 * fast-querystring for a path holding `#`.
 */
const NO_SEARCH_PARAMS = Object.freeze({});
const skipQueryString = () => NO_SEARCH_PARAMS;

/**
 * Static shapes (no parameter, no `%`, no find-my-way syntax) live in one map per method instead of
 * the tree. find-my-way compiles a matcher function for every static node it creates, about half
 * of what registering a route costs at startup, and a map answers an exact path at least as fast
 * as a tree walk. The answer is the same (test/static-routes.test.ts checks it against
 * find-my-way alone): a path that is a whole static route is what find-my-way returns too
 * (static children win over parametric ones at every level), and a request path is decoded as
 * find-my-way decodes it (`decodeURI`: every escape but those of `# $ & + , / : ; = ? @`) before
 * the map is asked.
 */
export function createMatcher<T>(): Matcher<T> {
  const router = FindMyWay({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    // Tern enforces its own parameter limit (414); find-my-way's would silently give a 404.
    maxParamLength: Number.MAX_SAFE_INTEGER,
    querystringParser: skipQueryString,
  });
  const statics = new Map<string, Map<string, MatcherHit<T>>>();
  const noop = () => undefined;
  return {
    add(method, shape, store) {
      if (!isStaticShape(shape)) {
        router.on(method as FindMyWay.HTTPMethod, shape, noop, store);
        return;
      }
      let byPath = statics.get(method);
      if (!byPath) statics.set(method, (byPath = new Map()));
      byPath.set(shape, { store, params: NO_PARAMS });
    },
    find(method, path) {
      const byPath = statics.get(method);
      if (byPath !== undefined) {
        const hit = byPath.get(path) ?? (path.includes('%') ? byPath.get(decodedPath(path)) : undefined);
        if (hit !== undefined) return hit;
      }
      const found = router.find(method as FindMyWay.HTTPMethod, path);
      return found ? { store: found.store as T, params: found.params } : null;
    },
  };
}

/** A shape find-my-way would read as plain text: no `:param`, `*`, `::` escape or `%`. */
function isStaticShape(shape: string): boolean {
  return !shape.includes(':') && !shape.includes('*') && !shape.includes('%');
}

/** The path as the map's keys are written; '' (no key) when it does not decode. */
function decodedPath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return '';
  }
}
