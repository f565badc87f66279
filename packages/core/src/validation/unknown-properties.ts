/**
 * `forbidUnknownProperties` given at each level that can set it (a route, its controller, the
 * app), most specific first: the first level that sets it decides; set nowhere, unknown
 * properties are stripped. One rule for request bodies (`routing/compile.ts`) and `@Query()`
 * models (`controllers/scanner.ts`).
 *
 * @example
 * forbidsUnknownProperties(false, true); // false: the route opts out of the app's setting
 */
export function forbidsUnknownProperties(...levels: ReadonlyArray<boolean | undefined>): boolean {
  return levels.find((level) => level !== undefined) === true;
}
