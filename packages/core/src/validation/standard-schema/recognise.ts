/**
 * Telling a Standard Schema value from a model class, a `[Class]` or a `{ field: type }` shape.
 * Every place that accepts a model asks here first: arktype's types are functions, valibot's
 * schemas are plain objects, so neither may fall through to the class or shape readings.
 */
import type { StandardSchemaV1 } from './spec';

/**
 * True for a value implementing Standard Schema v1 (`~standard.version` 1 and a `validate`
 * function): a zod, valibot or arktype schema, or a hand-made one.
 *
 * @example
 * isStandardSchema(z.object({ name: z.string() })); // true
 * isStandardSchema(CreateUserDto);                  // false
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  return (
    typeof props === 'object' &&
    props !== null &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** `a zod schema`, for messages. */
export function describeStandardSchema(schema: StandardSchemaV1): string {
  const vendor = schema['~standard'].vendor;
  return typeof vendor === 'string' && vendor !== '' ? `a ${vendor} schema` : 'a Standard Schema';
}

/** A model class's name, or `a zod schema` for a Standard Schema value. */
export function modelName(model: Function | StandardSchemaV1): string {
  return isStandardSchema(model) ? describeStandardSchema(model) : model.name;
}
