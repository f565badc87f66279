/**
 * A Standard Schema read from the query string (`@Query(schema)`): the parameters as an object,
 * each value shaped by what the schema's input JSON Schema says of its property, so a schema may
 * say `z.number()` (not only `z.coerce.number()`) for `?page=2`: a list property gets every
 * repeated value, a number or integer property a number when the text is one, a boolean property
 * `true`/`false`. A value that does not convert is passed as sent, for the schema to report.
 * Without a JSON Schema every value is passed as text (the first of repeated ones), as sent.
 */
import { standardJsonSchema } from './json-schema';
import type { StandardSchemaV1 } from './spec';

type Convert = (values: string | string[]) => unknown;

/** What one property's values become; `first` is the default for properties it does not know. */
const first: Convert = (values) => (Array.isArray(values) ? values[0] : values);
const list: Convert = (values) => (Array.isArray(values) ? values : [values]);
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const number: Convert = (values) => {
  const text = first(values) as string;
  return NUMBER.test(text) ? Number(text) : text;
};
const boolean: Convert = (values) => {
  const text = first(values) as string;
  return text === 'true' ? true : text === 'false' ? false : text;
};

/**
 * The function turning `req.queryParams.toObject()` into the value the schema validates, made once.
 *
 * @example
 * const prepare = queryInput(z.object({ page: z.number(), tag: z.array(z.string()) }));
 * prepare({ page: '2', tag: 'a' }); // { page: 2, tag: ['a'] }
 */
export function queryInput(schema: StandardSchemaV1): (query: Record<string, string | string[]>) => Record<string, unknown> {
  const converters = new Map<string, Convert>();
  for (const [name, property] of Object.entries(queryProperties(schema).properties)) converters.set(name, converterFor(property));
  return (query) => {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(query)) {
      // Own data only: a `__proto__` parameter is a key of the plain result, never its prototype.
      Object.defineProperty(out, key, { value: (converters.get(key) ?? first)(query[key]), enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
}

/**
 * The properties of the schema's input object and the required ones; none when it cannot
 * describe itself (the document refuses such a schema, unless the route is left out of it).
 *
 * @example
 * queryProperties(z.object({ page: z.number() })); // { properties: { page: { type: 'number' } }, required: ['page'] }
 */
export function queryProperties(schema: StandardSchemaV1): { properties: Record<string, Record<string, unknown>>; required: readonly string[] } {
  let described: Record<string, unknown>;
  try {
    described = standardJsonSchema(schema, 'input');
  } catch {
    return { properties: {}, required: [] };
  }
  const root = resolveLocal(described, described);
  const { properties, required } = root;
  return {
    properties: typeof properties === 'object' && properties !== null ? (properties as Record<string, Record<string, unknown>>) : {},
    required: Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [],
  };
}

function converterFor(property: Record<string, unknown>): Convert {
  const types = ([] as unknown[]).concat(property.type ?? []);
  if (types.includes('array')) return list;
  if (types.includes('number') || types.includes('integer')) return number;
  if (types.includes('boolean')) return boolean;
  return first;
}

/** The root itself, or the `$defs` entry its `$ref` names (zod writes a named root so). */
function resolveLocal(node: Record<string, unknown>, root: Record<string, unknown>): Record<string, unknown> {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  const defs = (root.$defs ?? root.definitions) as Record<string, Record<string, unknown>> | undefined;
  return (match && defs?.[match[1]]) || node;
}
