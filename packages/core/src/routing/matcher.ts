import FindMyWay from 'find-my-way';

/** What a lookup finds: the value stored for the shape and the raw parameter values by position. */
export interface MatcherHit<T> {
  store: T;
  /** Plain parameters as `p0`, `p1`…; a `path` parameter as `*`. Already percent-decoded. */
  params: Record<string, string | undefined>;
}

/**
 * The two-method interface the rest of Tern sees. find-my-way is the one implementation; it only
 * matches shapes, converters run afterwards so a rejected value can be a 422 rather than a 404.
 */
export interface Matcher<T> {
  add(method: string, shape: string, store: T): void;
  find(method: string, path: string): MatcherHit<T> | null;
}

export function createMatcher<T>(): Matcher<T> {
  const router = FindMyWay({
    caseSensitive: true,
    ignoreTrailingSlash: false,
    ignoreDuplicateSlashes: false,
    // Tern enforces its own parameter limit (414); find-my-way's would silently give a 404.
    maxParamLength: Number.MAX_SAFE_INTEGER,
  });
  const noop = () => undefined;
  return {
    add(method, shape, store) {
      router.on(method as FindMyWay.HTTPMethod, shape, noop, store);
    },
    find(method, path) {
      const found = router.find(method as FindMyWay.HTTPMethod, path);
      return found ? { store: found.store as T, params: found.params } : null;
    },
  };
}
