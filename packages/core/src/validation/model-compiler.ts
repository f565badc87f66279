/**
 * The seam between Tern and the library that validates request models. Routing, controllers and
 * the OpenAPI builder ask a `ModelCompiler` for a model's validator and for the facts that
 * describe it; only the compiler knows which decorators exist and how they are stored. The
 * default one (`class-validator/compiler.ts`) reads class-validator and class-transformer.
 */
import type { SchemaObject } from 'openapi3-ts/oas31';
import type { CompileOptions, ModelValidator } from './types';

/**
 * A model class: what a route's `requestModel`, a `@Body()` or a `@Query()` parameter names.
 *
 * @example
 * const model: ModelClass<CreateUser> = CreateUser;
 */
// `any[]`: a model's constructor may take arguments (the compiler only ever calls it without), and
// class-transformer's `ClassConstructor` is typed `new (...args: any[])`, which `never[]` would not fit.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- class-transformer's ClassConstructor takes any[]
export type ModelClass<T extends object = object> = new (...args: any[]) => T;

/**
 * Turns model classes into validators (once per route, at startup) and describes them for the
 * OpenAPI document.
 *
 * @example
 * const compiler: ModelCompiler = createClassValidatorCompiler({ codegen: false });
 * const validate = compiler.compile(CreateUser, { forbidNonWhitelisted: true });
 * const facts = compiler.describe(CreateUser); // { model: CreateUser, properties: [...] }
 */
export interface ModelCompiler {
  /** Called once per route in app.ready(); never per request. */
  compile<T extends object>(model: ModelClass<T>, options?: CompileOptions): ModelValidator<T>;
  /** Everything the OpenAPI schema builder needs to describe `model` (called at startup only). */
  describe(model: ModelClass): ModelDescription;
}

/**
 * What a model declares, in the order its properties were written (root ancestor first).
 *
 * @example
 * defaultModelCompiler.describe(CreateUser).properties.map((p) => p.name); // ['name', 'age']
 */
export interface ModelDescription {
  readonly model: ModelClass;
  /**
   * Properties the validator or the serializer knows about: a request body keeps those not
   * `hiddenInInput` (anything else is stripped or refused), a declared response writes those not
   * `hiddenInOutput` (anything else stays on the server).
   */
  readonly properties: readonly PropertyDescription[];
}

/**
 * One declared property of a model.
 *
 * @example
 * // @IsOptional() @IsInt() @Min(0) age?: number
 * { name: 'age', optional: true, nullable: true, designType: Number, declaredType: undefined,
 *   rules: [{ name: 'isInt', ... }, { name: 'min', constraints: [0], ... }] }
 */
export interface PropertyDescription {
  /** The property of the model instance (what a handler reads). */
  readonly name: string;
  /** The key a request body carries it under (`@Expose({ name })`); `name` when absent. */
  readonly inputName?: string;
  /** The key a response writes it under (`@Expose({ name })`); `name` when absent. */
  readonly outputName?: string;
  /**
   * Never read from a request body: `@Exclude()` or `@Exclude({ toClassOnly: true })`, or a
   * property with no validation rule (the validator strips it). Request schemas leave it out.
   */
  readonly hiddenInInput?: boolean;
  /**
   * Never written to a response: `@Exclude()`, `@Exclude({ toPlainOnly: true })`, `@Expose({ groups })`.
   * The response filter and response schemas leave it out.
   */
  readonly hiddenInOutput?: boolean;
  /** The property's checks (nested validation included), in the validator's order. */
  readonly rules: readonly RuleDescription[];
  /** The validator may skip the property entirely (`@IsOptional()`, `@ValidateIf()`). */
  readonly optional: boolean;
  /** The validator accepts `null` without checking it (`@IsOptional()`, `@Nullable()`). */
  readonly nullable: boolean;
  /** The property's TypeScript type as emitted in `design:type` (`Array` for lists). */
  // Built-ins (`String`, `Array`, `Map`) are not `ModelClass`es of the app, so `Function` it is.
  readonly designType: Function | undefined;
  /** The class values are converted to (`@Type(() => Item)`); names list items, beats `designType`. */
  readonly declaredType: Function | undefined;
  /**
   * The property is a map (`@IsRecord(() => [String])`): a JSON object with free keys whose
   * every value is `values`, or a list of it when `list`. The document shows it as
   * `additionalProperties`, and the response filter filters each value as `values`.
   */
  readonly record?: RecordDescription;
}

/**
 * What each value of a map property is.
 *
 * @example
 * // @IsRecord(() => [String]) errors: Record<string, string[]>
 * { values: String, list: true }
 */
export interface RecordDescription {
  /** `String`, `Number`, `Boolean`, or a model class (whose own description applies to each value). */
  readonly values: Function;
  /** Each value is a list of `values`. */
  readonly list: boolean;
}

/**
 * One check on a property.
 *
 * @example
 * // @ArrayMaxSize(10)
 * { name: 'arrayMaxSize', nested: false, each: false, appliesTo: 'list', constraints: [10], schema: { maxItems: 10 } }
 */
export interface RuleDescription {
  /** The constraint's registered name (`isString`, `min`…); `''` for nested validation. */
  readonly name: string;
  /** Nested validation (`@ValidateNested()`): the value's own class describes it. */
  readonly nested: boolean;
  /** The rule applies to each element of a list (or each value of a Map), not to the list. */
  readonly each: boolean;
  /** `list` when the rule describes the list itself (`@ArrayMaxSize`), else `value`. */
  readonly appliesTo: 'value' | 'list';
  /** The decorator's arguments, as the validator stores them. */
  readonly constraints: readonly unknown[];
  /** The JSON Schema keywords the rule stands for; `undefined` when no keyword says it. */
  readonly schema: SchemaObject | undefined;
}
