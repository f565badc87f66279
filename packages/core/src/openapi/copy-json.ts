/**
 * A deep copy of JSON data (objects, arrays, strings, numbers, booleans, null), for schema
 * fragments copied into every operation that uses them. `structuredClone` copies the same data
 * through the serializer: at startup, with one copy per path parameter, that was ~2 ms of a
 * 1,000-route document.
 *
 * @example
 * copyJson({ type: 'integer', minimum: 0 }); // a new, equal object
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyJson) as T;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyJson((value as Record<string, unknown>)[key]);
  return out as T;
}
