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
import { emailSchema, emailTest } from './email';
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
  neverThrows,
  numberTest,
  type Test,
} from './native-checks';
import { dateTime, enumSchema, isoDateTime, enumValues, ipSchema, isJsonScalar, isRecord, numberKeyword, patternSchema, stringSchema } from './schema-fragments';

/** Builds the native predicate from the decorator's arguments; `undefined`: leave it to class-validator. */
export type CheckFactory = (constraints: readonly unknown[]) => Test | undefined;
/** The decorator's arguments as JSON Schema keywords; `undefined` or `{}`: no keyword says it. */
export type SchemaFactory = (constraints: readonly unknown[]) => SchemaObject | undefined;

export interface Constraint {
  /**
   * class-validator's exported decorator that registers this constraint (`IsEmail`): only a
   * constraint registered by that decorator's own code runs natively (`builtins.ts`).
   */
  readonly decorator?: string;
  /** class-validator's check can throw on some values (validator's format checks): see `builtins.ts`. */
  readonly mayThrow?: true;
  readonly check?: CheckFactory;
  readonly schema?: SchemaFactory;
  readonly appliesTo: 'value' | 'list';
  /** A list rule on the array's length: when it fails, its elements are not checked further. */
  readonly bounds?: true;
}

const value = (check: CheckFactory | undefined, schema?: SchemaFactory): Constraint => ({ check, schema, appliesTo: 'value' });
const list = (check: CheckFactory | undefined, schema: SchemaFactory, bounds?: true): Constraint => ({ check, schema, appliesTo: 'list', bounds });
/** A constraint Tern checks natively, registered by class-validator's decorator `decorator`. */
const native = (decorator: string, entry: Constraint, mayThrow?: true): Constraint => ({ ...entry, decorator, mayThrow });
const always = (test: Test): CheckFactory => () => test;
const isNumber = (c: unknown): c is number => typeof c === 'number';

export const CONSTRAINTS: Readonly<Record<string, Constraint>> = {
  isDefined: native('IsDefined', value(always(isDefinedValue))),
  isEmpty: native('IsEmpty', value(always(isEmptyValue))),
  // `minLength: 1` on strings: class-to-schema.ts
  isNotEmpty: native('IsNotEmpty', value(always(isNotEmptyValue))),
  isString: native('IsString', value(always(isStringValue), () => stringSchema())),
  isBoolean: native('IsBoolean', value(always(isBooleanValue), () => ({ type: 'boolean' }))),
  isInt: native('IsInt', value(always(isIntValue), () => ({ type: 'integer' }))),
  isNumber: native('IsNumber', value(
    ([options]) =>
      options === undefined ? numberTest({}) : typeof options === 'object' && options !== null ? numberTest(options) : undefined,
    () => ({ type: 'number' }),
  )),
  isObject: native('IsObject', value(always(isObjectValue), () => ({ type: 'object' }))),
  isNotEmptyObject: value(undefined, () => ({ type: 'object', minProperties: 1 })),
  isDate: native('IsDate', value(always(isDateValue), dateTime)),
  isDateString: native('IsDateString', value(([options]) => {
    const { isDateString: test } = classValidator();
    return neverThrows((v) => test(v, options as Parameters<typeof isDateString>[1]));
  }, isoDateTime), true),
  isIso8601: native('IsISO8601', value(([options]) => {
    const { isISO8601: test } = classValidator();
    return neverThrows((v) => test(v, options as Parameters<typeof isISO8601>[1]));
  }, isoDateTime), true),
  isRFC3339: value(undefined, dateTime),
  isEnum: native('IsEnum', value(
    ([entity]) => enumTest(entity),
    ([entity]) => (isRecord(entity) ? enumSchema(enumValues(entity)) : undefined),
  )),
  isIn: native('IsIn', value(
    ([values]) => inTest(values),
    ([values]) => (Array.isArray(values) ? enumSchema(values) : undefined),
  )),
  isNotIn: value(undefined, ([values]) => (Array.isArray(values) ? { not: { enum: values.filter(isJsonScalar) } } : undefined)),
  equals: value(undefined, ([expected]) => (isJsonScalar(expected) ? { const: expected } : undefined)),
  min: native('Min', value(([bound]) => (v) => typeof v === 'number' && isNumber(bound) && v >= bound, ([n]) => numberKeyword('minimum', n))),
  max: native('Max', value(([bound]) => (v) => typeof v === 'number' && isNumber(bound) && v <= bound, ([n]) => numberKeyword('maximum', n))),
  isPositive: native('IsPositive', value(always((v) => typeof v === 'number' && v > 0), () => ({ exclusiveMinimum: 0 }))),
  isNegative: native('IsNegative', value(always((v) => typeof v === 'number' && v < 0), () => ({ exclusiveMaximum: 0 }))),
  // multipleOf must be > 0
  isDivisibleBy: value(undefined, ([n]) => (typeof n === 'number' && n > 0 ? numberKeyword('multipleOf', n) : undefined)),
  minLength: native('MinLength', value(([min]) => lengthTest(min, undefined), ([n]) => numberKeyword('minLength', n))),
  maxLength: native('MaxLength', value(([max]) => lengthTest(0, max), ([n]) => numberKeyword('maxLength', n))),
  isLength: native('Length', value(
    ([min, max]) => lengthTest(min, max),
    ([min, max]) => ({ ...numberKeyword('minLength', min), ...numberKeyword('maxLength', max) }),
  )),
  matches: native('Matches', value(
    ([pattern, modifiers]) => {
      const test = matchesTest(pattern, modifiers);
      return test && neverThrows(test);
    },
    ([pattern, flags]) => patternSchema(pattern, flags),
  ), true),
  isEmail: native('IsEmail', value(([options]) => neverThrows(emailTest(options)), ([options]) => emailSchema(options)), true),
  isUrl: native('IsUrl', value(([options]) => {
    const { isURL: test } = classValidator();
    return neverThrows((v) => typeof v === 'string' && test(v, options as Parameters<typeof isURL>[1]));
  }, () => stringSchema('uri')), true),
  isUuid: native('IsUUID', value(([version]) => {
    const { isUUID: test } = classValidator();
    return neverThrows((v) => test(v, version as Parameters<typeof isUUID>[1]));
  }, () => stringSchema('uuid')), true),
  isFqdn: value(undefined, () => stringSchema('hostname')),
  isIp: value(undefined, ([version]) => ipSchema(version)),
  isArray: native('IsArray', list(always(Array.isArray), () => ({ type: 'array' }))),
  arrayNotEmpty: native('ArrayNotEmpty', list(always((v) => Array.isArray(v) && v.length > 0), () => ({ minItems: 1 }), true)),
  arrayMinSize: native('ArrayMinSize', list(([min]) => (v) => Array.isArray(v) && v.length >= (min as number), ([n]) => numberKeyword('minItems', n), true)),
  arrayMaxSize: native('ArrayMaxSize', list(([max]) => (v) => Array.isArray(v) && v.length <= (max as number), ([n]) => numberKeyword('maxItems', n), true)),
  // class-to-schema.ts drops `uniqueItems` where JSON Schema's equality would differ
  arrayUnique: list(undefined, () => ({ uniqueItems: true })),
};

/** The table's entry for `name`, if any (own keys only: `constructor` is not a constraint). */
export function constraintNamed(name: string | undefined): Constraint | undefined {
  return name !== undefined && Object.prototype.hasOwnProperty.call(CONSTRAINTS, name) ? CONSTRAINTS[name] : undefined;
}
