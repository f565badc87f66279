/**
 * Response models compiled into filtering serializers ("responses by contract"): what a route
 * declares in `responses` is what leaves the server, whatever the handler returned (a plain
 * object, a DTO instance, an ORM entity with a `passwordHash`).
 */
import type { ResponseSchema } from '../routing/types';
import { generatedWriter } from './codegen';
import { filterValue } from './filter';
import { planResponse } from './plan';
import { closureWriter, type ValueWriter } from './writers';

/**
 * One response schema, compiled. `serialize(v)` equals `JSON.stringify(filter(v))`.
 *
 * @example
 * const users = compileResponseSerializer([UserDto])!;
 * users.serialize([entity]); // '[{"id":1,"email":"ada@example.com"}]' (no passwordHash)
 * users.filter([entity]);    // [{ id: 1, email: 'ada@example.com' }]
 */
export interface ResponseSerializer {
  /** The JSON text of the filtered value; `undefined` where `JSON.stringify` gives `undefined`. */
  serialize(value: unknown): string | undefined;
  /** The filtered value: declared objects as plain objects holding only their declared fields. */
  filter(value: unknown): unknown;
  /** True when `serialize` is generated code, false when it runs on closures (codegen disallowed or off). */
  readonly generated: boolean;
}

/**
 * Options for {@link compileResponseSerializer}.
 *
 * @example
 * compileResponseSerializer(UserDto, { codegen: false }); // closures only
 */
export interface ResponseSerializerOptions {
  /** Generate code with `new Function` (default true); closures are used when it is off or disallowed. */
  codegen?: boolean;
}

/**
 * Compiles one response schema (a model class, `[Class]`, a `{ field: Type }` shape) once, at
 * startup. Returns `undefined` when the schema filters nothing: `{ description }`, a built-in
 * (`String`, `[Number]`, `Date`) or a class that is not a model; send such bodies as before.
 * A model's declared properties are those with any class-validator or class-transformer
 * decorator; `@Exclude()` removes one, `@Expose({ name })` renames it, and `@Type(() => X)` or
 * `@ValidateNested()` makes its value filtered as `X` too.
 * Throws a `TernError` `TERN_INVALID_RESPONSE_MODEL` for a malformed shape or two properties
 * written under one name.
 *
 * @example
 * const serializer = compileResponseSerializer(MeDto);
 * const body = serializer ? serializer.serialize(entity) : JSON.stringify(entity);
 */
export function compileResponseSerializer(
  schema: ResponseSchema | undefined,
  options: ResponseSerializerOptions = {},
): ResponseSerializer | undefined {
  const plan = planResponse(schema);
  if (plan === undefined) return undefined;
  let write: ValueWriter = closureWriter(plan);
  let generated = false;
  if (options.codegen !== false) {
    try {
      write = generatedWriter(plan);
      generated = true;
    } catch (error) {
      if (!(error instanceof EvalError)) throw error; // code generation disallowed: closures do the same
    }
  }
  return {
    serialize: (value) => write(value, ''),
    filter: (value) => filterValue(plan, value, ''),
    generated,
  };
}

/**
 * Every filtering status of a route's `responses`, compiled once: the status codes whose schema
 * filters something, each with its serializer.
 *
 * @example
 * const serializers = compileResponseSerializers({ 200: MeDto, 404: { description: 'No user' } });
 * serializers.get(200)?.serialize(entity); // only MeDto's fields
 * serializers.has(404); // false: nothing to filter
 */
export function compileResponseSerializers(
  responses: Record<number, ResponseSchema> | undefined,
  options: ResponseSerializerOptions = {},
): Map<number, ResponseSerializer> {
  const serializers = new Map<number, ResponseSerializer>();
  for (const [status, schema] of Object.entries(responses ?? {})) {
    const serializer = compileResponseSerializer(schema, options);
    if (serializer !== undefined) serializers.set(Number(status), serializer);
  }
  return serializers;
}
