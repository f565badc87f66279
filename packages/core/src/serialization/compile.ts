/**
 * Response models compiled into filtering serializers ("responses by contract"): what a route
 * declares in `responses` is what leaves the server, whatever the handler returned (a plain
 * object, a DTO instance, an ORM entity with a `passwordHash`).
 */
import type { ResponseSchema } from '../routing/types';
import type { ModelCompiler } from '../validation/model-compiler';
import { generatedWriter, type BytesWriter } from './codegen';
import { filterValue } from './filter';
import { planResponse } from './plan';
import { closureWriter, type ValueWriter } from './writers';

/**
 * One response schema, compiled. `serialize(v)` equals `JSON.stringify(filter(v))`.
 *
 * @example
 * const users = compileResponseSerializer([UserDto], { modelCompiler: app.modelCompiler })!;
 * users.serialize([entity]); // '[{"id":1,"email":"ada@example.com"}]' (no passwordHash)
 * users.filter([entity]);    // [{ id: 1, email: 'ada@example.com' }]
 */
export interface ResponseSerializer {
  /** The JSON text of the filtered value; `undefined` where `JSON.stringify` gives `undefined`. */
  serialize(value: unknown): string | undefined;
  /** The same JSON as UTF-8 bytes: what `res.json()` sends (no decode to a string and encode back). */
  bytes(value: unknown): Buffer | undefined;
  /** The filtered value: declared objects as plain objects holding only their declared fields. */
  filter(value: unknown): unknown;
  /** True when `serialize` is generated code, false when it runs on closures (codegen disallowed or off). */
  readonly generated: boolean;
}

/**
 * Options for {@link compileResponseSerializer}.
 *
 * @example
 * compileResponseSerializer(UserDto, { modelCompiler: defaultModelCompiler, codegen: false }); // closures only
 */
export interface ResponseSerializerOptions {
  /** Generate code with `new Function` (default true); closures are used when it is off or disallowed. */
  codegen?: boolean;
  /** The app's compiler: its `describe()` says which properties a model writes, under which names. */
  modelCompiler: ModelCompiler;
}

/**
 * Compiles one response schema (a model class, `[Class]`, a `{ field: Type }` shape) once, at
 * startup. Returns `undefined` when the schema filters nothing: `{ description }`, a built-in
 * (`String`, `[Number]`, `Date`) or a class that is not a model; send such bodies as before.
 * A model's properties are those its compiler's `describe()` lists (for class-validator models:
 * any class-validator or class-transformer decorator); `@Exclude()` removes one, `@Expose({ name })`
 * renames it, and a property whose value the document shows as a model (`@Type(() => X)`, or a
 * design type that is a model class) is filtered as that model too.
 * Throws a `TernError` `TERN_INVALID_RESPONSE_MODEL` for a malformed shape or two properties
 * written under one name.
 *
 * @example
 * const serializer = compileResponseSerializer(MeDto, { modelCompiler: app.modelCompiler });
 * const body = serializer ? serializer.serialize(entity) : JSON.stringify(entity);
 */
export function compileResponseSerializer(
  schema: ResponseSchema | undefined,
  options: ResponseSerializerOptions,
): ResponseSerializer | undefined {
  const plan = planResponse(schema, options.modelCompiler);
  if (plan === undefined) return undefined;
  let write: ValueWriter = closureWriter(plan);
  let bytes: BytesWriter = (value, key) => {
    const text = write(value, key);
    return text === undefined ? undefined : Buffer.from(text);
  };
  let generated = false;
  if (options.codegen !== false) {
    try {
      ({ text: write, bytes } = generatedWriter(plan));
      generated = true;
    } catch (error) {
      if (!(error instanceof EvalError)) throw error; // code generation disallowed: closures do the same
    }
  }
  return {
    serialize: (value) => write(value, ''),
    bytes: (value) => bytes(value, ''),
    filter: (value) => filterValue(plan, value, ''),
    generated,
  };
}

/**
 * The serializers of one route, looked up by the status actually sent.
 *
 * @example
 * const serializers = compileResponseSerializers({ 200: MeDto, 404: { description: 'No user' } }, { modelCompiler });
 * serializers.forStatus(200)?.serialize(entity); // only MeDto's fields
 * serializers.forStatus(404); // undefined: nothing to filter, send as before
 */
export interface ResponseSerializers {
  /**
   * The serializer for `statusCode`: its own entry, else its range (`'2XX'`), else `'default'`;
   * `undefined` when the entry that applies filters nothing (`{ description }`) or none does.
   */
  forStatus(statusCode: number): ResponseSerializer | undefined;
  /** How many declared statuses filter something; 0 means the route needs no filtering at all. */
  readonly size: number;
}

const RANGE = /^([1-5])XX$/i;

/**
 * Every filtering status of a route's `responses` (keys `200`, `'2XX'`, `'default'` as in
 * OpenAPI), compiled once at startup. Keys that are none of those are skipped: the OpenAPI
 * document builder reports them.
 *
 * @example
 * const serializers = compileResponseSerializers({ 200: [UserDto], default: ErrorDto }, { modelCompiler });
 * serializers.forStatus(200)?.serialize(users);
 * serializers.forStatus(500)?.serialize(error); // ErrorDto's fields
 */
export function compileResponseSerializers(
  responses: Readonly<Record<string | number, ResponseSchema>> | undefined,
  options: ResponseSerializerOptions,
): ResponseSerializers {
  // `null`: declared, filters nothing. It still wins over a range or `default`, as in OpenAPI.
  const exact = new Map<number, ResponseSerializer | null>();
  const ranges: Array<ResponseSerializer | null | undefined> = [];
  let fallback: ResponseSerializer | undefined;
  for (const [status, schema] of Object.entries(responses ?? {})) {
    const range = RANGE.exec(status);
    if (!/^[1-5]\d\d$/.test(status) && range === null && status !== 'default') continue;
    const serializer = compileResponseSerializer(schema as ResponseSchema, options) ?? null;
    if (range !== null) ranges[Number(range[1])] = serializer;
    else if (status === 'default') fallback = serializer ?? undefined;
    else exact.set(Number(status), serializer);
  }
  const size = [...exact.values(), ...ranges, fallback].filter(Boolean).length;
  return {
    forStatus: (statusCode) => {
      const own = exact.get(statusCode);
      if (own !== undefined) return own ?? undefined;
      const range = ranges[Math.floor(statusCode / 100)];
      return range !== undefined ? (range ?? undefined) : fallback;
    },
    size,
  };
}
