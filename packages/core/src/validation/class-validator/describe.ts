/**
 * `ModelCompiler.describe` for class-validator models: the facts the OpenAPI schema builder and
 * the response filter need, read from the same stores the validator reads (through
 * `metadata.ts`), each rule with its JSON Schema keywords from the constraint table, each
 * property with the names class-transformer reads and writes it under. Neither the schema
 * builder nor the filter sees class-validator's or class-transformer's storage.
 */
import type { ExcludeMetadata, ExposeMetadata } from 'class-transformer';
import { TernError } from '../../errors/tern-error';
import type { ModelClass, ModelDescription, PropertyDescription, RecordDescription, RuleDescription } from '../model-compiler';
import { isRecordRule } from './is-record';
import { recordSpecOf, type RecordValues } from './record';
import { constraintNamed } from './constraints';
import {
  classChain,
  declaredTypeOf,
  designTypeOf,
  ownTransformerProperties,
  ownValidatedProperties,
  transformerRecords,
  validationMetadatas,
  validationTypes,
  type ValidationMeta,
} from './metadata';
import { isNullableCondition } from './nullable';

/**
 * Every property of a model that carries a class-validator or class-transformer decorator,
 * parents' first (a re-declared property at its ancestor's place), so a subclass lists inherited
 * fields first; within one class the validated ones in source order, then those only
 * class-transformer knows (`@Expose()`, `@Type`, `@Transform` alone: the two stores cannot be
 * interleaved more precisely). A property without a validation rule is `hiddenInInput` (the
 * validator strips it); `@Exclude`/`@Expose` decide the rest, direction by direction, as
 * class-transformer does without groups. Rules of every validation group are included: the
 * schema shows every field.
 */
export function describeModel(model: ModelClass): ModelDescription {
  const byName = new Map<string, ValidationMeta[]>();
  for (const name of declarationOrder(model)) byName.set(name, []);
  for (const meta of validationMetadatas(model)) {
    if (typeof meta.target !== 'function') continue; // named schemas (registerSchema) are not classes
    const metas = byName.get(meta.propertyName);
    if (metas) metas.push(meta);
    else byName.set(meta.propertyName, [meta]);
  }
  const wire = wireNames(model);
  return { model, properties: [...byName].map(([name, metas]) => describeProperty(model, name, metas, wire)) };
}

function describeProperty(model: ModelClass, name: string, metas: ValidationMeta[], wire: WireNames): PropertyDescription {
  const types = validationTypes();
  const conditions = metas.filter((m) => m.type === types.CONDITIONAL_VALIDATION);
  const nullableOnly = conditions.filter((m) => !isNullableCondition(m.constraints?.[0]));
  // class-validator's whitelist keeps any property with a record of its own, `@IsOptional()` alone included.
  const validated = metas.length > 0;
  const record = metas.find(isRecordRule);
  return {
    name,
    ...wire(name, validated),
    ...(record === undefined ? {} : { record: describeRecord(record) }),
    rules: metas.filter((m) => (m.type === types.CUSTOM_VALIDATION || m.type === types.NESTED_VALIDATION) && !isRecordRule(m)).map(describeRule),
    optional: nullableOnly.length > 0,
    nullable: conditions.some((m) => m.name === 'isOptional' || isNullableCondition(m.constraints?.[0])),
    designType: designTypeOf(model, name),
    declaredType: declaredTypeOf(model, name),
  };
}

function describeRecord(meta: ValidationMeta): RecordDescription {
  const spec = recordSpecOf(meta.constraints[0] as () => RecordValues);
  return { values: spec.type, list: spec.list };
}

function describeRule(meta: ValidationMeta): RuleDescription {
  const nested = meta.type === validationTypes().NESTED_VALIDATION;
  // `@ValidateNested()` has no name; it adds no keyword, the class it points at does.
  const name = nested ? '' : (meta.name ?? '');
  const constraint = nested ? undefined : constraintNamed(name);
  const constraints = meta.constraints ?? [];
  const schema = constraint?.schema?.(constraints);
  return {
    name,
    nested,
    each: !!meta.each,
    appliesTo: constraint?.appliesTo ?? 'value',
    constraints,
    schema: schema !== undefined && Object.keys(schema).length > 0 ? schema : undefined,
  };
}

/** Property names, root ancestor first; each class's validated ones in source order, then the rest. */
function declarationOrder(model: Function): string[] {
  const names = new Set<string>();
  for (const cls of classChain(model)) {
    for (const name of ownValidatedProperties(cls)) names.add(name);
    for (const name of readable(() => ownTransformerProperties(cls))) names.add(name);
  }
  return [...names];
}

type Wire = Pick<PropertyDescription, 'inputName' | 'outputName' | 'hiddenInInput' | 'hiddenInOutput'>;
type WireNames = (name: string, validated: boolean) => Wire;

/**
 * How class-transformer reads (`plainToInstance`) and writes (`instanceToPlain`, no groups) each
 * property of `model`: `@Expose({ name })` renames, `@Exclude()` hides, `toClassOnly` limits
 * either to reading and `toPlainOnly` to writing; `@Expose({ groups })` hides a property both
 * ways; a class-level `@Exclude()` keeps only `@Expose()`d properties.
 */
function wireNames(model: ModelClass): WireNames {
  const { exposes, excludes } = readable(() => transformerRecords(model));
  // class-transformer's `excludeAll` strategy: the class's own class-level @Exclude() without @Expose().
  const exposedOnly = excludes.has(undefined) && !exposes.has(undefined);
  return (name, validated) => {
    const expose = exposes.get(name);
    const exclude = excludes.get(name);
    const grouped = (expose?.options?.groups?.length ?? 0) > 0;
    const exposedIn = expose !== undefined && applies(expose, 'input');
    const exposedOut = expose !== undefined && applies(expose, 'output');
    const wire: { -readonly [K in keyof Wire]: Wire[K] } = {};
    if (exposedIn && expose?.options?.name !== undefined) wire.inputName = expose.options.name;
    if (exposedOut && expose?.options?.name !== undefined) wire.outputName = expose.options.name;
    const hiddenIn = !validated || grouped || (exclude !== undefined && applies(exclude, 'input')) || (exposedOnly && !exposedIn);
    const hiddenOut = grouped || (exclude !== undefined && applies(exclude, 'output')) || (exposedOnly && !exposedOut);
    if (hiddenIn) wire.hiddenInInput = true;
    if (hiddenOut) wire.hiddenInOutput = true;
    return wire;
  };
}

/** `toClassOnly` records apply to reading a request, `toPlainOnly` ones to writing a response. */
function applies(record: ExposeMetadata | ExcludeMetadata, direction: 'input' | 'output'): boolean {
  const { toClassOnly, toPlainOnly } = record.options ?? {};
  if (toClassOnly === true && toPlainOnly !== true) return direction === 'input';
  if (toPlainOnly === true && toClassOnly !== true) return direction === 'output';
  return true;
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
      'This class-transformer release stores its metadata differently: models cannot be described',
      { cause: error },
    );
  }
}
