/**
 * The one table of the constraints Tern knows, keyed by the name class-validator registers each
 * under: how to check it natively (`check`) and what JSON Schema says it (`schema`). Adding a
 * constraint is one entry here; a constraint missing from the table is still validated (through
 * class-validator) and adds nothing to the schema.
 *
 * `appliesTo: 'list'` marks rules that describe an array itself (`@ArrayMaxSize`); their schema
 * goes on the array, not on its items. `bounds` marks the list rules after whose failure the
 * elements are not examined (see `execute.ts`).
 */
import type { isDateString, isISO8601, isURL, isUUID } from 'class-validator';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { classValidator } from '../libraries';
import { emailTest } from './email';
import {
  enumTest,
  inTest,
  isBooleanValue,
  isDateValue,
  isDefinedValue,
  isEmptyValue,
  isIntValue,
  isNotEmptyValue,
  isObjectValue,
  isStringValue,
  lengthTest,
  matchesTest,
  numberTest,
  type Test,
} from './native-checks';
import { dateTime, enumSchema, enumValues, ipSchema, isJsonScalar, isRecord, numberKeyword, patternSchema, stringSchema } from './schema-fragments';

/** Builds the native predicate from the decorator's arguments; `undefined`: leave it to class-validator. */
export type CheckFactory = (constraints: readonly unknown[]) => Test | undefined;
/** The decorator's arguments as JSON Schema keywords; `undefined` or `{}`: no keyword says it. */
export type SchemaFactory = (constraints: readonly unknown[]) => SchemaObject | undefined;

export interface Constraint {
  readonly check?: CheckFactory;
  readonly schema?: SchemaFactory;
  readonly appliesTo: 'value' | 'list';
  /** A list rule on the array's length: when it fails, its elements are not checked further. */
  readonly bounds?: true;
}

const value = (check: CheckFactory | undefined, schema?: SchemaFactory): Constraint => ({ check, schema, appliesTo: 'value' });
const list = (check: CheckFactory | undefined, schema: SchemaFactory, bounds?: true): Constraint => ({ check, schema, appliesTo: 'list', bounds });
const always = (test: Test): CheckFactory => () => test;
const isNumber = (c: unknown): c is number => typeof c === 'number';

export const CONSTRAINTS: Readonly<Record<string, Constraint>> = {
  isDefined: value(always(isDefinedValue)),
  isEmpty: value(always(isEmptyValue)),
  isNotEmpty: value(always(isNotEmptyValue)), // `minLength: 1` on strings: class-to-schema.ts
  isString: value(always(isStringValue), () => stringSchema()),
  isBoolean: value(always(isBooleanValue), () => ({ type: 'boolean' })),
  isInt: value(always(isIntValue), () => ({ type: 'integer' })),
  isNumber: value(
    ([options]) =>
      options === undefined ? numberTest({}) : typeof options === 'object' && options !== null ? numberTest(options) : undefined,
    () => ({ type: 'number' }),
  ),
  isObject: value(always(isObjectValue), () => ({ type: 'object' })),
  isNotEmptyObject: value(undefined, () => ({ type: 'object', minProperties: 1 })),
  isDate: value(always(isDateValue), dateTime),
  isDateString: value(([options]) => {
    const { isDateString: test } = classValidator();
    return (v) => test(v, options as Parameters<typeof isDateString>[1]);
  }, dateTime),
  isIso8601: value(([options]) => {
    const { isISO8601: test } = classValidator();
    return (v) => test(v, options as Parameters<typeof isISO8601>[1]);
  }, dateTime),
  isRFC3339: value(undefined, dateTime),
  isEnum: value(
    ([entity]) => enumTest(entity),
    ([entity]) => (isRecord(entity) ? enumSchema(enumValues(entity)) : undefined),
  ),
  isIn: value(
    ([values]) => inTest(values),
    ([values]) => (Array.isArray(values) ? enumSchema(values) : undefined),
  ),
  isNotIn: value(undefined, ([values]) => (Array.isArray(values) ? { not: { enum: values.filter(isJsonScalar) } } : undefined)),
  equals: value(undefined, ([expected]) => (isJsonScalar(expected) ? { const: expected } : undefined)),
  min: value(([bound]) => (v) => typeof v === 'number' && isNumber(bound) && v >= bound, ([n]) => numberKeyword('minimum', n)),
  max: value(([bound]) => (v) => typeof v === 'number' && isNumber(bound) && v <= bound, ([n]) => numberKeyword('maximum', n)),
  isPositive: value(always((v) => typeof v === 'number' && v > 0), () => ({ exclusiveMinimum: 0 })),
  isNegative: value(always((v) => typeof v === 'number' && v < 0), () => ({ exclusiveMaximum: 0 })),
  // multipleOf must be > 0
  isDivisibleBy: value(undefined, ([n]) => (typeof n === 'number' && n > 0 ? numberKeyword('multipleOf', n) : undefined)),
  minLength: value(([min]) => lengthTest(min, undefined), ([n]) => numberKeyword('minLength', n)),
  maxLength: value(([max]) => lengthTest(0, max), ([n]) => numberKeyword('maxLength', n)),
  isLength: value(
    ([min, max]) => lengthTest(min, max),
    ([min, max]) => ({ ...numberKeyword('minLength', min), ...numberKeyword('maxLength', max) }),
  ),
  matches: value(([pattern, modifiers]) => matchesTest(pattern, modifiers), ([pattern, flags]) => patternSchema(pattern, flags)),
  isEmail: value(([options]) => emailTest(options), () => stringSchema('email')),
  isUrl: value(([options]) => {
    const { isURL: test } = classValidator();
    return (v) => typeof v === 'string' && test(v, options as Parameters<typeof isURL>[1]);
  }, () => stringSchema('uri')),
  isUuid: value(([version]) => {
    const { isUUID: test } = classValidator();
    return (v) => test(v, version as Parameters<typeof isUUID>[1]);
  }, () => stringSchema('uuid')),
  isFqdn: value(undefined, () => stringSchema('hostname')),
  isIp: value(undefined, ([version]) => ipSchema(version)),
  isArray: list(always(Array.isArray), () => ({ type: 'array' })),
  arrayNotEmpty: list(always((v) => Array.isArray(v) && v.length > 0), () => ({ minItems: 1 }), true),
  arrayMinSize: list(([min]) => (v) => Array.isArray(v) && v.length >= (min as number), ([n]) => numberKeyword('minItems', n), true),
  arrayMaxSize: list(([max]) => (v) => Array.isArray(v) && v.length <= (max as number), ([n]) => numberKeyword('maxItems', n), true),
  // class-to-schema.ts drops `uniqueItems` where JSON Schema's equality would differ
  arrayUnique: list(undefined, () => ({ uniqueItems: true })),
};

/** The table's entry for `name`, if any (own keys only: `constructor` is not a constraint). */
export function constraintNamed(name: string | undefined): Constraint | undefined {
  return name !== undefined && Object.prototype.hasOwnProperty.call(CONSTRAINTS, name) ? CONSTRAINTS[name] : undefined;
}
