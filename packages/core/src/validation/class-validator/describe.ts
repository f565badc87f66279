/**
 * `ModelCompiler.describe` for class-validator models: the facts the OpenAPI schema builder
 * needs, read from the same stores the validator reads (through `metadata.ts`), each rule with
 * its JSON Schema keywords from the constraint table. The schema builder never sees
 * class-validator's storage.
 */
import type { ModelClass, ModelDescription, PropertyDescription, RuleDescription } from '../model-compiler';
import { constraintNamed } from './constraints';
import {
  classChain,
  declaredTypeOf,
  designTypeOf,
  ownValidatedProperties,
  validationMetadatas,
  validationTypes,
  type ValidationMeta,
} from './metadata';

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
    designType: designTypeOf(model, name),
    declaredType: declaredTypeOf(model, name),
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

/** Validated property names, root ancestor first, each class's in source order. */
function declarationOrder(model: Function): string[] {
  return [...new Set(classChain(model).flatMap((cls) => ownValidatedProperties(cls)))];
}
