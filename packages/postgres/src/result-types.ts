/**
 * The one place result values get their JavaScript types, the same under both drivers. Left to
 * themselves they differ: `count(*)` (int8) is a number under PGlite and the string `"3"` under
 * node-postgres, which a response model's `Integer` field then sends as a string; a `date` is
 * UTC midnight under PGlite and local midnight under node-postgres.
 */

/** PostgreSQL type OIDs the drivers disagree on. */
export const OID = { int8: 20, int8Array: 1016, date: 1082 } as const;

/**
 * int8 (`count(*)`, `bigint`, `bigserial`): a number while it is exact, the decimal string past
 * 2^53 (JSON has no bigint, and a rounded id is a wrong id).
 *
 * @example
 * parseInt8('3'); // 3
 * parseInt8('9007199254740993'); // '9007199254740993'
 */
export function parseInt8(text: string): number | string {
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : text;
}

/**
 * `date` is a calendar day, not an instant: kept as its text, `2024-02-29`.
 *
 * @example
 * parseDate('2024-02-29'); // '2024-02-29'
 */
export function parseDate(text: string): string {
  return text;
}

/** `{1,2,NULL}` of int8, as the drivers send arrays in text form (int8 has no quoting). */
export function parseInt8Array(text: string): Array<number | string | null> {
  const inner = text.slice(1, -1);
  if (inner === '') return [];
  return inner.split(',').map((item) => (item === 'NULL' ? null : parseInt8(item)));
}

/** The text parsers both drivers are given, by OID. */
export const TEXT_PARSERS: Readonly<Record<number, (text: string) => unknown>> = {
  [OID.int8]: parseInt8,
  [OID.int8Array]: parseInt8Array,
  [OID.date]: parseDate,
};
