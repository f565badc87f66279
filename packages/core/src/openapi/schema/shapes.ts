import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { Integer } from './integer';

/**
 * The type of one field in a `{ field: type }` response shape: a constructor (`String`, `Number`,
 * `Boolean`, `Date`, a model class), a one-element list of one (`[Class]`), or a nested shape.
 *
 * @example
 * const field: FieldType = [String]; // a list of strings
 */
export type FieldType = Function | readonly [FieldType] | { [field: string]: FieldType };

/**
 * What a route may give per status code in its `responses` option.
 *
 * @example
 * const responses: Record<number, ResponseShape> = {
 *   200: [User],                          // a list of User
 *   201: { id: Number, tags: [String] },  // an inline object, every field required
 *   204: { description: 'Deleted' },      // no body, only a description
 * };
 */
export type ResponseShape =
  | Function
  | readonly [Function]
  | { description: string }
  | Record<string, FieldType>;

/** Hands out `$ref`s; the registry passes itself in so these helpers need not import it. */
export type RefFor = (model: Function) => ReferenceObject;

/** A date travels as an ISO 8601 string in JSON; class-transformer turns it into a `Date`. */
const DATE_TIME: SchemaObject = Object.freeze({ type: 'string', format: 'date-time' });

/**
 * A model is a class of the application. Arrow functions have no prototype; built-ins are
 * either native code (`String`, `Date`, `Map`) or, in Node, JavaScript classes published as
 * globals (`Buffer`, `URL`, `Blob`), so both are ruled out.
 */
export function isModelClass(value: unknown): value is Function {
  return (
    typeof value === 'function' &&
    value !== Integer &&
    value.prototype !== undefined &&
    (globalThis as Record<string, unknown>)[value.name] !== value &&
    !Function.prototype.toString.call(value).includes('[native code]')
  );
}

/**
 * The schema a constructor stands for: a design type, an `@Type(() => X)` target or a field of
 * a response shape. Unknown built-ins give `{}` (anything) rather than a guess.
 */
export function constructorSchema(ctor: Function | undefined, refFor: RefFor): SchemaObject | ReferenceObject {
  switch (ctor) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Integer:
      return { type: 'integer' };
    case Boolean:
      return { type: 'boolean' };
    case Date:
      return { ...DATE_TIME };
    case Array:
      return { type: 'array', items: {} };
    case Set:
      return { type: 'array', items: {} };
    case Map:
      return { type: 'object' };
    default:
      return isModelClass(ctor) ? refFor(ctor) : {};
  }
}

/** `{ description: 'text' }`: documents a response that has no body schema. */
export function isDescriptionShape(value: object): value is { description: string } {
  return typeof (value as { description?: unknown }).description === 'string';
}

/** Object literals only: a class instance or a schema-like object is not a field shape. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** A value named in an error message: `function User`, `"text"`, `null`, `number`. */
export function describeValue(value: unknown): string {
  if (typeof value === 'function') return value.name ? `function ${value.name}` : 'an anonymous function';
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}
