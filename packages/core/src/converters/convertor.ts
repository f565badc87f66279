/**
 * A path parameter converter: `regex` decides which segments the parameter accepts, `convert`
 * turns the accepted text into a value (throw any Error to answer 422 with its message), and
 * `toString` turns a value back into path text for `urlFor`.
 *
 * @example
 * class VersionConvertor extends Convertor<number> {
 *   regex = 'v[0-9]+';
 *   convert(value: string) { return Number(value.slice(1)); }
 *   toString(value: number) { return `v${value}`; }
 * }
 * registerUrlConvertor('version', new VersionConvertor());
 * app.get('/api/{v:version}/status', async (req, res, { v }) => ({ v }));
 */
export abstract class Convertor<T = unknown> {
  /** A regular expression source, matched against the whole decoded parameter value. */
  abstract regex: string;
  abstract convert(value: string): T;
  abstract toString(value: T): string;
  /** JSON Schema for the OpenAPI parameter; built-ins declare theirs, custom ones may. */
  openapi?: Record<string, unknown>;
}
