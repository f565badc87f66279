import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { apiPropertyOf } from '../api-property';

/**
 * The default values of a model's properties: the class is constructed once, here, at startup
 * (never per request), and each own property whose initialiser gives a JSON value is kept. A
 * class whose constructor needs arguments or throws has no defaults to show.
 */
const defaultsByModel = new WeakMap<Function, ReadonlyMap<string, unknown>>();

function classDefaults(model: Function): ReadonlyMap<string, unknown> {
  let defaults = defaultsByModel.get(model);
  if (defaults) return defaults;
  const found = new Map<string, unknown>();
  try {
    const instance = new (model as new () => Record<string, unknown>)();
    for (const key of Object.keys(instance)) {
      const value = jsonValue(instance[key]);
      if (value !== undefined) found.set(key, value);
    }
  } catch {
    // No defaults: class-transformer could not construct it without arguments either.
  }
  defaultsByModel.set(model, (defaults = found));
  return defaults;
}

/** A value as JSON would carry it (a Date as its ISO text), or undefined when it has no JSON form. */
function jsonValue(value: unknown): unknown {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return undefined;
  if (typeof value !== 'object' || value === null) return typeof value === 'number' && !Number.isFinite(value) ? undefined : value;
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * A property's schema with its documentation: the class initialiser's default, then what
 * `@ApiProperty()` says (its `default` wins). OpenAPI 3.1 lets these sit beside a `$ref`.
 */
export function documentProperty(schema: SchemaObject | ReferenceObject, model: Function, name: string): SchemaObject | ReferenceObject {
  const docs = apiPropertyOf(model, name);
  const defaults = classDefaults(model);
  if (!docs && !defaults.has(name)) return schema;
  const out: Record<string, unknown> = { ...schema };
  if (defaults.has(name)) out.default = defaults.get(name);
  for (const [key, value] of Object.entries(docs ?? {})) if (value !== undefined) out[key] = structuredClone(value);
  return out as SchemaObject;
}
