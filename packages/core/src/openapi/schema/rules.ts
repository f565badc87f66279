import type { ReferenceObject, SchemaObject, SchemaObjectType } from 'openapi3-ts/oas31';
import { DATE_TIME } from './shapes';

/**
 * One class-validator rule as a JSON Schema fragment. Keys are the `name`s class-validator
 * stores (`isString`, `min`...); decorators not listed here add nothing to the schema, so a
 * custom or exotic validator (`@IsPhoneNumber`) leaves the property's type alone.
 */
export type Rule = (constraints: readonly unknown[]) => SchemaObject | undefined;

const string = (format?: string): Rule => () => (format ? { type: 'string', format } : { type: 'string' });

/** Rules that describe a single value: the property itself, or each item when `each: true`. */
export const VALUE_RULES: Readonly<Record<string, Rule>> = {
  isString: string(),
  isNumber: () => ({ type: 'number' }),
  isInt: () => ({ type: 'integer' }),
  isBoolean: () => ({ type: 'boolean' }),
  isDate: () => ({ ...DATE_TIME }),
  isDateString: () => ({ ...DATE_TIME }),
  isIso8601: () => ({ ...DATE_TIME }),
  isRFC3339: () => ({ ...DATE_TIME }),
  isEmail: string('email'),
  isUuid: string('uuid'),
  isUrl: string('uri'),
  isFqdn: string('hostname'),
  isIp: ([version]) => {
    const v = String(version ?? '');
    return v === '4' || v === '6' ? { type: 'string', format: `ipv${v}` } : { type: 'string' };
  },
  isEnum: ([entity]) => (isObject(entity) ? enumSchema(enumValues(entity)) : undefined),
  isIn: ([values]) => (Array.isArray(values) ? enumSchema(values) : undefined),
  isNotIn: ([values]) => (Array.isArray(values) ? { not: { enum: values.filter(isJsonScalar) } } : undefined),
  equals: ([value]) => (isJsonScalar(value) ? { const: value } : undefined),
  min: ([n]) => number('minimum', n),
  max: ([n]) => number('maximum', n),
  isPositive: () => ({ exclusiveMinimum: 0 }),
  isNegative: () => ({ exclusiveMaximum: 0 }),
  isDivisibleBy: ([n]) => (typeof n === 'number' && n > 0 ? number('multipleOf', n) : undefined), // must be > 0
  minLength: ([n]) => number('minLength', n),
  maxLength: ([n]) => number('maxLength', n),
  isLength: ([min, max]) => ({ ...number('minLength', min), ...number('maxLength', max) }),
  matches: ([pattern, flags]) => patternSchema(pattern, flags),
  isObject: () => ({ type: 'object' }),
  isNotEmptyObject: () => ({ type: 'object', minProperties: 1 }),
};

/** Rules that describe the list itself (class-to-schema.ts drops `uniqueItems` where it would differ). */
export const ARRAY_RULES: Readonly<Record<string, Rule>> = {
  isArray: () => ({ type: 'array' }),
  arrayMinSize: ([n]) => number('minItems', n),
  arrayMaxSize: ([n]) => number('maxItems', n),
  arrayNotEmpty: () => ({ minItems: 1 }),
  arrayUnique: () => ({ uniqueItems: true }),
};

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

/**
 * The values of a TypeScript enum. A numeric enum also maps each number back to its name
 * (`E[0] === 'A'`); those reverse entries are dropped so `enum Level { Low, High }` lists
 * `[0, 1]`, not names. (class-validator itself also accepts the names; the schema documents
 * the values the enum is for.) String and mixed enums have no reverse entries.
 */
export function enumValues(entity: Record<string, unknown>): unknown[] {
  return Object.keys(entity)
    .filter((key) => {
      const value = entity[key];
      return !(typeof value === 'string' && typeof entity[value] === 'number' && String(entity[value]) === key);
    })
    .map((key) => entity[key]);
}

/** `enum` plus the `type` its values share, so numeric enums say `integer`, not `string`. */
export function enumSchema(values: readonly unknown[]): SchemaObject {
  const allowed = values.filter(isJsonScalar);
  const types = new Set<SchemaObjectType>(allowed.map(jsonType));
  if (types.has('number')) types.delete('integer'); // every integer is a number
  const type = [...types];
  if (type.length === 0) return { enum: allowed };
  return { type: type.length === 1 ? type[0] : type, enum: allowed };
}

/**
 * JSON Schema patterns are ECMA-262 sources without flags. Flags that change what matches
 * (`i`, `m`, `s`, `y`, `v`) cannot be carried, and dropping them would reject values the
 * validator accepts, so such a pattern is left out of the schema.
 */
function patternSchema(pattern: unknown, flags: unknown): SchemaObject | undefined {
  const source = pattern instanceof RegExp ? pattern.source : typeof pattern === 'string' ? pattern : undefined;
  const allFlags = (pattern instanceof RegExp ? pattern.flags : '') + (typeof flags === 'string' ? flags : '');
  if (source === undefined || /[imsyv]/.test(allFlags)) return { type: 'string' };
  return { type: 'string', pattern: source };
}

function number(key: string, value: unknown): SchemaObject {
  return typeof value === 'number' && Number.isFinite(value) ? { [key]: value } : {};
}

function jsonType(value: string | number | boolean | null): SchemaObjectType {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : 'boolean';
}

/** Only scalars can equal a parsed JSON value under `===`, and only they serialise as-is. */
function isJsonScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isNumeric(type: unknown): boolean {
  return type === 'number' || type === 'integer';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
