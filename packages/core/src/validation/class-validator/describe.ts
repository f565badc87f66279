/**
 * `ModelCompiler.describe` for class-validator models: the facts the OpenAPI schema builder
 * needs, read from the same stores the validator reads (through `metadata.ts`), each rule with
 * its JSON Schema keywords from the constraint table. The schema builder never sees
 * class-validator's storage.
 */
import 'reflect-metadata';
import type { ModelClass, ModelDescription, PropertyDescription, RuleDescription } from '../model-compiler';
import { constraintNamed } from './constraints';
import { typeMetadataOf, validationMetadatas, validationTypes, type ValidationMeta } from './metadata';

/**
 * The validated properties of a model, parents' fields included, ordered from the root ancestor
 * down so a subclass lists inherited fields first. Only properties class-validator knows about
 * are listed: with `whitelist` the others never reach a handler. Rules of every validation group
 * are included: the schema shows every field.
 */
export function describeModel(model: ModelClass): ModelDescription {
  const all = validationMetadatas(model);
  const byName = new Map<string, ValidationMeta[]>();
  for (const name of declarationOrder(model)) byName.set(name, []);
  for (const meta of all) {
    if (typeof meta.target !== 'function') continue; // named schemas (registerSchema) are not classes
    const metas = byName.get(meta.propertyName);
    if (metas) metas.push(meta);
    else byName.set(meta.propertyName, [meta]);
  }
  return { model, properties: [...byName].map(([name, metas]) => describeProperty(model, name, metas)) };
}

function describeProperty(model: ModelClass, name: string, metas: ValidationMeta[]): PropertyDescription {
  const types = validationTypes();
  const conditions = metas.filter((m) => m.type === types.CONDITIONAL_VALIDATION);
  return {
    name,
    rules: metas.filter((m) => m.type === types.CUSTOM_VALIDATION || m.type === types.NESTED_VALIDATION).map(describeRule),
    optional: conditions.length > 0,
    nullable: conditions.some((m) => m.name === 'isOptional'),
    designType: asFunction(Reflect.getMetadata('design:type', model.prototype, name)),
    declaredType: declaredType(model, name),
  };
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

/**
 * Property names in source order, root ancestor first. Decorators on one property run bottom
 * up, but properties register top to bottom, so first appearance follows the source.
 */
function declarationOrder(model: Function): string[] {
  const names = new Set<string>();
  for (const cls of ancestry(model)) {
    for (const meta of validationMetadatas(cls)) {
      if (meta.target === cls) names.add(meta.propertyName);
    }
  }
  return [...names];
}

/** The class chain from the root ancestor down to `model`. */
function ancestry(model: Function): Function[] {
  const chain: Function[] = [];
  for (let cls: unknown = model; typeof cls === 'function' && cls !== Function.prototype; ) {
    chain.unshift(cls);
    cls = Object.getPrototypeOf(cls);
  }
  return chain;
}

/**
 * The `@Type(() => X)` target. The thunk may read its `TypeHelpOptions` argument to pick a type
 * per object; with no object at hand it can throw, and then the design type has to do.
 */
function declaredType(model: Function, name: string): Function | undefined {
  const meta = typeMetadataOf(model, name);
  if (!meta) return undefined;
  try {
    return asFunction(meta.typeFunction());
  } catch {
    return undefined;
  }
}

function asFunction(value: unknown): Function | undefined {
  return typeof value === 'function' ? value : undefined;
}
