/**
 * The Standard Schema v1 and Standard JSON Schema v1 interfaces (standardschema.dev), copied as
 * the spec invites, so that Tern and its users need no package for them: zod, valibot, arktype
 * and others implement them. `test/types/standard-schema.typecheck.ts` keeps this copy
 * assignable both ways to `@standard-schema/spec`'s.
 */

/**
 * A schema of any library implementing Standard Schema v1: `~standard.validate` checks a value
 * and answers the library's output or its issues.
 *
 * @example
 * const schema: StandardSchemaV1<unknown, { name: string }> = z.object({ name: z.string() });
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace -- the spec's own shape: StandardSchemaV1.InferOutput<S>
export declare namespace StandardSchemaV1 {
  /** What `~standard` holds. */
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  export type Result<Output> = SuccessResult<Output> | FailureResult;
  export interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  export interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  export interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  export interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  export interface PathSegment {
    readonly key: PropertyKey;
  }
  export interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** What the schema accepts. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  /** What the schema's validation answers (transforms, coercions and defaults applied). */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}

/**
 * A schema that describes itself as JSON Schema (Standard JSON Schema v1): zod 4.2+, arktype,
 * valibot through `toStandardJsonSchema()` of `@valibot/to-json-schema`.
 *
 * @example
 * const described = schema as StandardJSONSchemaV1;
 * described['~standard'].jsonSchema.input({ target: 'draft-2020-12' }); // { type: 'object', ... }
 */
export interface StandardJSONSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardJSONSchemaV1.Props<Input, Output>;
}

// eslint-disable-next-line @typescript-eslint/no-namespace -- the spec's own shape
export declare namespace StandardJSONSchemaV1 {
  export interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly types?: StandardSchemaV1.Types<Input, Output> | undefined;
    readonly jsonSchema: Converter;
  }
  export interface Converter {
    readonly input: (options: Options) => Record<string, unknown>;
    readonly output: (options: Options) => Record<string, unknown>;
  }
  // `{} & string` keeps the literal suggestions in editors, as the spec writes it.
  export type Target = 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
  export interface Options {
    readonly target: Target;
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}
