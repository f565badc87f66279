/**
 * The only place that reads class-validator's and class-transformer's metadata stores, so a
 * change in either library's internals is handled (or detected) here.
 */
import type { MetadataStorage, ValidationTypes } from 'class-validator';
import type { TypeMetadata } from 'class-transformer';
import { classTransformerStorage, classValidator } from '../libraries';

export type ValidationMeta = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];
export type ConstraintMeta = ReturnType<MetadataStorage['getTargetValidatorConstraints']>[number];

/** class-validator's names for the kinds of metadata it records (`customValidation`, …). */
export function validationTypes(): typeof ValidationTypes {
  return classValidator().ValidationTypes;
}

/**
 * The rules class-validator applies to an instance of `cls`, own first, then inherited: the same
 * call its executor makes (no groups requested, so every rule applies).
 */
export function validationMetadatas(cls: Function): ValidationMeta[] {
  return classValidator().getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
}

/**
 * Rules grouped by property, in the order class-validator visits them: it groups into a plain
 * object and walks `Object.keys`, so integer-like names come first.
 */
export function groupByProperty(metas: ValidationMeta[]): Array<[string, ValidationMeta[]]> {
  const grouped: Record<string, ValidationMeta[]> = Object.create(null);
  for (const meta of metas) (grouped[meta.propertyName] ??= []).push(meta);
  return Object.keys(grouped).map((key) => [key, grouped[key]]);
}

/** class-transformer's `@Type(() => X)` record for one property, nearest declaration first. */
export function typeMetadataOf(cls: Function, property: string): TypeMetadata | undefined {
  return classTransformerStorage().findTypeMetadata(cls, property);
}

export function constraintsOf(meta: ValidationMeta): ConstraintMeta[] {
  return classValidator().getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls);
}

/** Ancestors as class-transformer computes them (nearest first). */
function ancestors(cls: Function): Function[] {
  const out: Function[] = [];
  for (let base = Object.getPrototypeOf(cls); base && base.prototype !== undefined; base = Object.getPrototypeOf(base)) {
    out.push(base);
  }
  return out;
}

type PerClass<V> = Map<Function, Map<string | undefined, V>>;
interface TransformerInternals {
  _typeMetadatas?: PerClass<TypeMetadata>;
  _transformMetadatas?: PerClass<unknown[]>;
}

/** What class-transformer would do with the properties of `cls` when turning plain data into it. */
export interface TransformerFacts {
  /** `@Type` metadata per property, nearest declaration wins (class-transformer's lookup order). */
  readonly types: Map<string, TypeMetadata>;
  /** Features the native path does not reproduce; non-empty means the model falls back. */
  readonly unsupported: string[];
}

export function transformerFacts(cls: Function): TransformerFacts {
  const unsupported: string[] = [];
  const types = new Map<string, TypeMetadata>();
  const transformer = classTransformerStorage();
  const internals = transformer as unknown as TransformerInternals;
  // Enumerating every decorated property needs the private maps; if a release renames them we
  // cannot tell what is decorated, so every model falls back rather than guess.
  if (!(internals._typeMetadatas instanceof Map) || !(internals._transformMetadatas instanceof Map)) {
    unsupported.push('class-transformer metadata storage has an unknown layout');
    return { types, unsupported };
  }
  if (transformer.getStrategy(cls) !== 'none') unsupported.push('class-level @Expose/@Exclude');
  if (transformer.getExposedMetadatas(cls).length > 0) unsupported.push('@Expose');
  if (transformer.getExcludedMetadatas(cls).length > 0) unsupported.push('@Exclude');
  // Farthest ancestor first, so a nearer declaration overwrites a farther one.
  for (const owner of [...ancestors(cls).reverse(), cls]) {
    const transforms = internals._transformMetadatas.get(owner);
    if (transforms && transforms.size > 0) unsupported.push(`@Transform on ${owner.name}`);
    const typed = internals._typeMetadatas.get(owner);
    if (typed) for (const [key, meta] of typed) if (key !== undefined) types.set(key, meta);
  }
  return { types, unsupported };
}
