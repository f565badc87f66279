/**
 * Combining JSON Schema fragments: the keywords of each rule come from the model compiler
 * (`ModelDescription`); this is how several rules on one value become one schema.
 */
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

/** True when a fragment pins down what kind of value is allowed, so design:type must not. */
export function fixesType(fragment: SchemaObject): boolean {
  return (fragment.type !== undefined && fragment.type !== 'object') || 'enum' in fragment || 'const' in fragment;
}

const LOWER_BOUNDS = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems']);

/**
 * Combines fragments the way class-validator combines rules: all must hold. Two bounds keep the
 * stricter one, `number` and `integer` make `integer`, and anything else that disagrees is kept
 * as an extra `allOf` entry instead of being overwritten (two `@Matches` both apply).
 */
export function mergeFragments(base: SchemaObject, fragments: readonly SchemaObject[]): SchemaObject {
  const out: Record<string, unknown> = { ...base };
  const extra: SchemaObject[] = [];
  for (const fragment of fragments) {
    for (const [key, value] of Object.entries(fragment)) {
      const current = out[key];
      if (current === undefined || sameJson(current, value)) out[key] = value;
      else if (LOWER_BOUNDS.has(key)) out[key] = Math.max(current as number, value as number);
      else if (UPPER_BOUNDS.has(key)) out[key] = Math.min(current as number, value as number);
      else if (key === 'type' && isNumeric(current) && isNumeric(value)) out[key] = 'integer';
      else extra.push({ [key]: value });
    }
  }
  if (extra.length > 0) out.allOf = [...((out.allOf as SchemaObject[] | undefined) ?? []), ...extra];
  return out as SchemaObject;
}

/**
 * Widens a schema to accept `null`, as `@IsOptional()` does. OpenAPI 3.1 has no `nullable`:
 * add `'null'` to `type` (and to `enum`), or wrap what cannot carry it (a `$ref`, a `const`,
 * a combinator) in `anyOf`. A schema with no type and no enum already accepts `null`.
 */
export function allowNull(schema: SchemaObject | ReferenceObject): SchemaObject | ReferenceObject {
  const s = schema as SchemaObject;
  if ('$ref' in schema || 'const' in s || s.allOf || s.anyOf || s.oneOf || s.not) {
    return { anyOf: [schema, { type: 'null' }] };
  }
  const out: SchemaObject = { ...s };
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    out.type = types.includes('null') ? types : [...types, 'null'];
  }
  if (s.enum && !s.enum.includes(null)) out.enum = [...s.enum, null];
  return out;
}

function isNumeric(type: unknown): boolean {
  return type === 'number' || type === 'integer';
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
