/**
 * The one module of serialization/ that reads decorator metadata. Everything it needs from
 * class-validator and class-transformer comes through `validation/class-validator/metadata.ts`,
 * so a change in either library's store is handled there.
 */
import { TernError } from '../errors/tern-error';
import {
  classChain,
  declaredTypeOf,
  designTypeOf,
  ownTransformerProperties,
  ownValidatedProperties,
  transformerRecords,
  validationMetadatas,
  validationTypes,
} from '../validation/class-validator/metadata';

/** What the response filter needs to know about one declared property of a model. */
export interface DeclaredProperty {
  /** The property read on the value. */
  readonly name: string;
  /** The key written to the JSON: `@Expose({ name })` when it applies to output, else `name`. */
  readonly outputName: string;
  /** `@Exclude()` (not `toClassOnly`), or an `@Expose({ groups })` that no ungrouped output shows. */
  readonly hidden: boolean;
  /** `@Expose()` applies to output: under a class-level `@Exclude()` only these are written. */
  readonly exposed: boolean;
  /** The class a nested value is filtered as: `@Type(() => X)`, or design:type under `@ValidateNested()`. */
  readonly nestedClass: Function | undefined;
  /** What TypeScript emitted as `design:type`, a hint of the usual runtime type. */
  readonly designType: Function | undefined;
}

/** One model's declared properties, root ancestor's first, and its class-level strategy. */
export interface DeclaredModel {
  readonly properties: DeclaredProperty[];
  /** Class-level `@Exclude()`: only `@Expose()`d properties are written (class-transformer's `excludeAll`). */
  readonly exposedOnly: boolean;
}

/**
 * Every property of `model` that carries a class-validator or class-transformer decorator, its
 * ancestors' first (a re-declared property at its ancestor's place, as in the OpenAPI schema).
 * Within one class, validated properties come in source order, then those that only
 * class-transformer knows (the two stores cannot be interleaved more precisely).
 *
 * @example
 * declaredModel(UserDto).properties.map((p) => p.outputName); // ['id', 'email', 'created_at']
 */
export function declaredModel(model: Function): DeclaredModel {
  const { exposes, excludes } = readable(() => transformerRecords(model));
  const names = new Set<string>();
  for (const cls of classChain(model)) {
    for (const name of ownValidatedProperties(cls)) names.add(name);
    for (const name of readable(() => ownTransformerProperties(cls))) names.add(name);
  }
  const { NESTED_VALIDATION } = validationTypes();
  const nested = new Set(validationMetadatas(model).filter((r) => r.type === NESTED_VALIDATION).map((r) => r.propertyName));
  const properties = [...names].map((name): DeclaredProperty => {
    const expose = exposes.get(name);
    const exposeOptions = expose && appliesToOutput(expose.options) ? expose.options : undefined;
    const exclude = excludes.get(name);
    const designType = designTypeOf(model, name);
    return {
      name,
      outputName: exposeOptions?.name ?? name,
      hidden: (exclude !== undefined && appliesToOutput(exclude.options)) || (expose?.options?.groups?.length ?? 0) > 0,
      exposed: exposeOptions !== undefined,
      // A `@Type` thunk that throws without its argument has no target: the design type is used then.
      nestedClass: declaredTypeOf(model, name) ?? (nested.has(name) ? designType : undefined),
      designType,
    };
  });
  // class-transformer's `excludeAll` strategy: the class's own class-level @Exclude() without @Expose().
  return { properties, exposedOnly: excludes.has(undefined) && !exposes.has(undefined) };
}

/**
 * `read()`, from class-transformer's store. Where a release stores its metadata differently, a
 * property decorated only with @Type or @Transform would silently vanish from every response:
 * refuse at startup instead.
 */
function readable<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw new TernError(
      'TERN_INVALID_RESPONSE_MODEL',
      'This class-transformer release stores its metadata differently: response models cannot be read',
      { cause: error },
    );
  }
}

/** `toClassOnly` options describe reading a request, not writing a response. */
function appliesToOutput(options: { toClassOnly?: boolean; toPlainOnly?: boolean } | undefined): boolean {
  return !(options?.toClassOnly === true && options.toPlainOnly !== true);
}
