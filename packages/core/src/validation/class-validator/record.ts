/**
 * What `@IsRecord(() => X)` means, shared by every reading of it: the native build and check
 * (`transform.ts`, `execute.ts`), the class-transformer + class-validator path (`is-record.ts`)
 * and `describe()`. A record is a JSON object whose keys are free and whose every value is `X`
 * (or, for `() => [X]`, a list of `X`): `String`, `Number`, `Boolean` or a model class.
 */
import { TernTypeError } from '../../errors';
import type { ModelClass } from '../model-compiler';
import { isObjectBody, type ValidationIssue } from '../types';

/** A record value's type: a JSON scalar's constructor, or a model class. */
export type RecordValueType = StringConstructor | NumberConstructor | BooleanConstructor | ModelClass;

/** What `@IsRecord`'s function returns: the values' type, or `[type]` for lists of it. */
export type RecordValues = RecordValueType | readonly [RecordValueType];

export type RecordScalar = 'string' | 'number' | 'boolean';

/** `@IsRecord`'s argument, resolved. */
export interface RecordSpec {
  /** `String`, `Number`, `Boolean` or the model class. */
  readonly type: Function;
  /** The JSON type of scalar values; `undefined` for a model class. */
  readonly scalar: RecordScalar | undefined;
  /** Each value is a list of `type`. */
  readonly list: boolean;
}

const SCALARS = new Map<unknown, RecordScalar>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

const specs = new WeakMap<Function, RecordSpec>();

/**
 * The spec of `@IsRecord(values)`, resolved on first use (the function may name a class declared
 * later in the file). Throws a `TERN_INVALID_ARGUMENT` TypeError for anything but a type or `[type]`.
 */
export function recordSpecOf(values: () => RecordValues): RecordSpec {
  let spec = specs.get(values);
  if (spec === undefined) {
    const given: unknown = values();
    const list = Array.isArray(given);
    if (list && given.length !== 1) invalid(`[Type] lists exactly one type, got ${given.length}`);
    const type: unknown = list ? given[0] : given;
    if (typeof type !== 'function' || type === Array || type === Object || type === Date || !type.prototype) {
      invalid(`expected String, Number, Boolean or a model class, got ${typeof type === 'function' ? type.name : String(type)}`);
    }
    spec = Object.freeze({ type, scalar: SCALARS.get(type), list });
    specs.set(values, spec);
  }
  return spec;
}

function invalid(detail: string): never {
  throw new TernTypeError('TERN_INVALID_ARGUMENT', `@IsRecord(() => Type): ${detail}.`);
}

const SCALAR_TESTS: Record<RecordScalar, (value: unknown) => boolean> = {
  string: (value) => typeof value === 'string',
  number: (value) => typeof value === 'number' && Number.isFinite(value),
  boolean: (value) => typeof value === 'boolean',
};

/** The message for a record that is not an object. */
export function notARecordMessage(property: string, spec: RecordSpec): string {
  return `${property} must be an object whose values are ${valuesText(spec)}`;
}

function valuesText(spec: RecordSpec): string {
  const one = spec.scalar === undefined ? `${spec.type.name} objects` : `${spec.scalar}s`;
  return spec.list ? `arrays of ${one}` : one;
}

/**
 * Checks the values of `record` (an object) key by key, in key order. Scalar problems are
 * reported as issues at `key` (paths relative to the record); each model instance met (a value,
 * or an item of a list value) is handed to `nested` with its path, in the same order, so the
 * caller validates it by its class (`nesting`: how far below the record it sits). `message` replaces the default texts (the decorator's own).
 */
export function checkRecordValues(
  spec: RecordSpec,
  record: Record<string, unknown>,
  report: (issue: ValidationIssue) => void,
  nested: (instance: object, path: string, nesting: number) => void,
  message?: string,
): void {
  const test = spec.scalar === undefined ? isObjectBody : SCALAR_TESTS[spec.scalar];
  const what = spec.scalar === undefined ? 'an object' : `a ${spec.scalar}`;
  for (const key of Object.keys(record)) {
    const value = record[key];
    if (spec.list) {
      if (!Array.isArray(value)) {
        report({ path: key, message: message ?? `${key} must be an array` });
        continue;
      }
      let failed = false;
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (!test(item)) failed = true;
        else if (spec.scalar === undefined) nested(item as object, `${key}.${i}`, 2);
      }
      if (failed) report({ path: key, message: message ?? `each value in ${key} must be ${what}` });
    } else if (!test(value)) {
      report({ path: key, message: message ?? `${key} must be ${what}` });
    } else if (spec.scalar === undefined) {
      nested(value as object, key, 1);
    }
  }
}

/**
 * `copy` (class-transformer's copy of the record `raw`, or the native build's) with every key of
 * `raw` back in `raw`'s order. class-transformer skips a key named like a method of the new
 * object, which for a plain object means `Object.prototype`'s (`toString`, `hasOwnProperty`,
 * `valueOf`…): right for a model's properties, but a map's keys are data (a word count holds
 * `"toString"`), so a record keeps them as own keys, validated and written like any other.
 * Only `__proto__` is left out (assigning it would replace the prototype); a `constructor` key
 * never gets here (class-transformer cannot copy such an object: `could not be converted`).
 * A list value is copied, so its model items can be replaced without touching the body.
 */
export function withEveryKey(copy: unknown, raw: unknown): unknown {
  if (!isObjectBody(copy) || !isObjectBody(raw)) return copy;
  const keys = Object.keys(raw);
  if (keys.every((key) => key === '__proto__' || hasOwn(copy, key))) return copy;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    if (key === '__proto__') continue;
    const value = hasOwn(copy, key) ? copy[key] : raw[key];
    out[key] = Array.isArray(value) && !hasOwn(copy, key) ? [...(value as unknown[])] : value;
  }
  return out;
}

function hasOwn(object: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(object, key);
}

/**
 * A record as class-transformer's `plainToInstance` leaves it once `@IsRecord`'s transform has
 * run: `copy` is the fresh copy class-transformer made of the body's object (no `__proto__` or
 * `constructor` key), and each model value in it (each object item of a list value) is replaced
 * by `toInstance(value, nesting)`, `nesting` being how far below the record it sits. Anything
 * else is left for the validator to report.
 */
export function withInstances(spec: RecordSpec, copy: unknown, toInstance: (value: object, nesting: number) => object): unknown {
  if (spec.scalar !== undefined || !isObjectBody(copy)) return copy;
  for (const key of Object.keys(copy)) {
    const value = copy[key];
    if (!spec.list) {
      if (isObjectBody(value)) copy[key] = toInstance(value, 1);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) if (isObjectBody(value[i])) value[i] = toInstance(value[i] as object, 2);
    }
  }
  return copy;
}

/** What the fallback validates with, for the model values of records (set around its `validate` call). */
interface RecordValidation {
  readonly whitelist: boolean;
  readonly forbidNonWhitelisted: boolean;
}

let current: RecordValidation | undefined;

/**
 * Runs `validate` (class-validator's, which calls every constraint synchronously before it
 * returns its promise) with `options` as the options records' model values are validated with.
 */
export function withRecordOptions<T>(options: RecordValidation, validate: () => T): T {
  const before = current;
  current = options;
  try {
    return validate();
  } finally {
    current = before;
  }
}

/** The issues found in a record (paths relative to it), by the record value they were found in. */
const details = new WeakMap<object, ValidationIssue[]>();

/** Keeps what the fallback's `isRecord` constraint found in `record`, for `recordIssuesOf`. */
export function keepRecordIssues(record: object, issues: ValidationIssue[]): void {
  details.set(record, issues);
}

/** The options records' model values are validated with now (none set: class-validator's defaults). */
export function currentRecordOptions(): RecordValidation {
  return current ?? { whitelist: false, forbidNonWhitelisted: false };
}

/**
 * The issues a failed `isRecord` constraint found in `value` (paths relative to the record), for
 * `flattenErrors` to list in place of its one message; `undefined` when the value was not a record.
 */
export function recordIssuesOf(value: unknown): readonly ValidationIssue[] | undefined {
  return typeof value === 'object' && value !== null ? details.get(value) : undefined;
}

