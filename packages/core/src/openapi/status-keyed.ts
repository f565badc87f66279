/** An index far past an empty object's element store: adding it switches the store to a hash table. */
const FAR_INDEX = 1 << 20;

/**
 * An empty object for HTTP status codes as keys (`200`, `'422'`, `'2XX'`, `'default'`), such as
 * an operation's `responses`. Otherwise an ordinary object: same keys, same order, same JSON.
 *
 * Why not `{}`: V8 keeps integer-like keys as array elements, and adding `200` to an empty object
 * allocates a ~300-slot element store that `422` then grows to ~650, about 6 KB per object, which
 * `JSON.stringify` walks slot by slot. With one such object per operation that was ~6 MB of heap
 * and ~15 ms of a 1,000-route app's startup (docs/performance-log.md). Elements that start in
 * dictionary mode are a small hash table, and V8 keeps them so while they stay sparse.
 *
 * @example
 * const responses = statusKeyed<ResponseObject>();
 * responses[200] = { description: 'Successful Response' };
 */
export function statusKeyed<T>(): Record<string, T> {
  const out: Record<string | number, T | undefined> = {};
  out[FAR_INDEX] = undefined;
  delete out[FAR_INDEX];
  return out as Record<string, T>;
}
