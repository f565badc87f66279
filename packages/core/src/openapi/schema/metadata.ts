import 'reflect-metadata';
import { typeMetadataOf, validationMetadatas, validationTypes, type ValidationMeta } from '../../validation/metadata';

/** One class-validator rule as its metadata store records it. */
export type ValidationMetadata = ValidationMeta;

/** Everything the schema builder needs to know about one property of a model. */
export interface PropertyMetadata {
  name: string;
  /** Rule-carrying metadata (custom and nested validations), in class-validator's order. */
  validators: ValidationMetadata[];
  /** `@IsOptional()` or `@ValidateIf()`: class-validator may skip the property entirely. */
  optional: boolean;
  /** `@IsOptional()` only: it skips `null` as well as `undefined`. */
  nullable: boolean;
  /** What TypeScript emitted as `design:type` (`Array` for lists, `Object` for unknowns). */
  designType: Function | undefined;
  /** The target of class-transformer's `@Type(() => X)`, which names list items and beats design:type. */
  declaredType: Function | undefined;
}

/**
 * Reads the validated properties of a model, parents' fields included, ordered from the root
 * ancestor down so a subclass lists inherited fields first. Only properties class-validator
 * knows about are returned: with `whitelist` the others never reach a handler.
 */
export function readProperties(model: Function): PropertyMetadata[] {
  // Rules of every validation group are included: the schema shows every field.
  const all = validationMetadatas(model);
  const byName = new Map<string, ValidationMetadata[]>();
  for (const name of declarationOrder(model)) byName.set(name, []);
  for (const meta of all) {
    if (typeof meta.target !== 'function') continue; // named schemas (registerSchema) are not classes
    const metas = byName.get(meta.propertyName);
    if (metas) metas.push(meta);
    else byName.set(meta.propertyName, [meta]);
  }
  return [...byName].map(([name, metas]) => describe(model, name, metas));
}

function describe(model: Function, name: string, metas: ValidationMetadata[]): PropertyMetadata {
  const types = validationTypes();
  const conditions = metas.filter((m) => m.type === types.CONDITIONAL_VALIDATION);
  return {
    name,
    validators: metas.filter((m) => m.type === types.CUSTOM_VALIDATION || m.type === types.NESTED_VALIDATION),
    optional: conditions.length > 0,
    nullable: conditions.some((m) => m.name === 'isOptional'),
    designType: asFunction(Reflect.getMetadata('design:type', model.prototype, name)),
    declaredType: declaredType(model, name),
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
