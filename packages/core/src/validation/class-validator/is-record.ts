/**
 * `@IsRecord(() => X)`: a map, `Record<string, X>` (RealWorld's `errors: Record<string, string[]>`).
 * It is written as one class-validator constraint and one class-transformer `@Transform`, so
 * plain `plainToInstance` + `validate` (the fallback path) do what it says; the native path
 * recognises both by identity (`isRecordRule`, `isRecordTransform`) and runs the same rules
 * (`record.ts`), as `@Nullable()`'s condition is recognised.
 */
import type { ValidationArguments, ValidationOptions, ValidatorConstraintInterface } from 'class-validator';
import { TernTypeError } from '../../errors';
import { classTransformer, classValidator } from '../libraries';
import { isObjectBody, type ValidationIssue } from '../types';
import { replaceTokens } from './messages';
import { flattenErrors } from './flatten';
import { checkRecordValues, currentRecordOptions, keepRecordIssues, notARecordMessage, recordSpecOf, withEveryKey, withInstances, type RecordValues } from './record';

/** class-validator's constraint behind `@IsRecord` (identified by this class, never by its name). */
class RecordConstraint implements ValidatorConstraintInterface {
  validate(value: unknown, args: ValidationArguments): boolean | Promise<boolean> {
    if (!isObjectBody(value)) return false;
    const spec = recordSpecOf(args.constraints[0] as () => RecordValues);
    const options = currentRecordOptions();
    const { validate } = classValidator();
    const parts: Array<ValidationIssue[] | Promise<ValidationIssue[]>> = [];
    const message = customMessage(args);
    checkRecordValues(
      spec,
      value,
      (issue) => parts.push([issue]),
      (instance, path) => {
        const nested = validate(instance, { ...options, forbidUnknownValues: false });
        parts.push(nested.then((errors) => flattenErrors(errors, Infinity).errors.map((issue) => ({ path: `${path}.${issue.path}`, message: issue.message }))));
      },
      message,
    );
    const settle = (found: ValidationIssue[][]): boolean => {
      const issues = found.flat();
      if (issues.length === 0) return true;
      keepRecordIssues(value, issues);
      return false;
    };
    return parts.some((part) => part instanceof Promise) ? Promise.all(parts).then(settle) : settle(parts as ValidationIssue[][]);
  }

  defaultMessage(args: ValidationArguments): string {
    return notARecordMessage(args.property, recordSpecOf(args.constraints[0] as () => RecordValues));
  }
}

/** The decorator's own `message` (kept in `constraints[1]`), tokens replaced, for the issues found inside the record. */
function customMessage(args: ValidationArguments): string | undefined {
  const message: unknown = args.constraints[1];
  return message === undefined ? undefined : replaceTokens(message, args);
}

/** Marks the `@Transform` functions `@IsRecord` registers. */
const recordTransforms = new WeakSet<Function>();

/** True for a `@Transform` function `@IsRecord` registered: the native build does its work itself. */
export function isRecordTransform(fn: unknown): boolean {
  return typeof fn === 'function' && recordTransforms.has(fn);
}

/** True for a class-validator rule `@IsRecord` registered; its `constraints[0]` is the values function. */
export function isRecordRule(meta: { constraintCls?: Function }): boolean {
  return meta.constraintCls === RecordConstraint;
}

let registered = false;

/**
 * A map: a JSON object whose keys are free and whose every value is `values()` (a scalar
 * constructor or a model class), or a list of it when written `() => [Type]`. Validated key by
 * key (a model value by its own rules, issues named `field.key.…`), built with each model value
 * an instance of its class, filtered key by key in responses (a model value keeps only its
 * declared fields, a `String` value never carries an object), and documented as
 * `{ type: 'object', additionalProperties: <values> }`. Required unless `@IsOptional()` says
 * otherwise. JSON bodies with `__proto__` keys are refused before validation (400); elsewhere
 * `__proto__` is dropped, as class-transformer drops it, and a truthy `constructor` key is a 422
 * (class-transformer would call it).
 *
 * @example
 * class ErrorModel {
 *   @IsRecord(() => [String]) errors!: Record<string, string[]>;   // {"errors":{"email":["is taken"]}}
 * }
 * class Inventory {
 *   @IsRecord(() => Stock) stock!: Record<string, Stock>;           // each value validated as a Stock
 * }
 */
export function IsRecord(values: () => RecordValues, options?: ValidationOptions): PropertyDecorator {
  if (typeof values !== 'function') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', "@IsRecord takes a function returning the values' type: @IsRecord(() => [String]).");
  }
  const { registerDecorator, ValidatorConstraint } = classValidator();
  if (!registered) {
    ValidatorConstraint({ name: 'isRecord', async: false })(RecordConstraint);
    registered = true;
  }
  // `value` is class-transformer's copy of the record, `obj[key]` what the body held: the keys
  // the copy skipped come back from it (`withEveryKey`).
  const transform = ({ value, key, obj }: { value: unknown; key: string; obj: Record<string, unknown> }) =>
    withInstances(recordSpecOf(values), withEveryKey(value, obj[key]), (item) => classTransformer().plainToInstance(recordSpecOf(values).type as new () => object, item));
  recordTransforms.add(transform);
  const convert = classTransformer().Transform(transform, { toClassOnly: true });
  const constraints = options?.message === undefined ? [values] : [values, options.message];
  return (target, property) => {
    const name = property as string;
    registerDecorator({ name: 'isRecord', target: target.constructor, propertyName: name, constraints, options, validator: RecordConstraint });
    convert(target, name);
  };
}
