/**
 * The only place that reads (and, for mapped types, writes) class-validator's and
 * class-transformer's metadata stores, so a change in either library's internals is handled (or
 * detected) here.
 */
import 'reflect-metadata';
import type { MetadataStorage, ValidationTypes } from 'class-validator';
import type { ExcludeMetadata, ExposeMetadata, TransformMetadata, TypeMetadata } from 'class-transformer';
import { classTransformerStorage, classValidator } from '../libraries';
import { isRecordTransform } from './is-record';

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
 * The properties `cls` itself (not an ancestor) gives class-validator rules, in source order:
 * decorators on one property run bottom up, but properties register top to bottom, so first
 * appearance follows the source. Walking `classChain(model)` with this lists a model's validated
 * properties root ancestor first, a re-declared property at its ancestor's place.
 */
export function ownValidatedProperties(cls: Function): string[] {
  const names = new Set<string>();
  for (const meta of validationMetadatas(cls)) if (meta.target === cls) names.add(meta.propertyName);
  return [...names];
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

/**
 * The class of a property's `@Type(() => X)` (nearest declaration first). The thunk may read its
 * `TypeHelpOptions` argument to pick a type per object; with no object at hand it can throw, and
 * then there is no declared type (callers use the design type).
 */
export function declaredTypeOf(cls: Function, property: string): Function | undefined {
  const meta = classTransformerStorage().findTypeMetadata(cls, property);
  if (!meta) return undefined;
  try {
    return asFunction(meta.typeFunction());
  } catch {
    return undefined;
  }
}

/** What TypeScript emitted as the property's `design:type` (`Array` for lists). */
export function designTypeOf(cls: Function, property: string): Function | undefined {
  return asFunction(Reflect.getMetadata('design:type', cls.prototype, property));
}

function asFunction(value: unknown): Function | undefined {
  return typeof value === 'function' ? value : undefined;
}

export function constraintsOf(meta: ValidationMeta): ConstraintMeta[] {
  return classValidator().getMetadataStorage().getTargetValidatorConstraints(meta.constraintCls);
}

/** The class chain from the root ancestor down to `cls` (class-transformer's ancestors, reversed, then `cls`). */
export function classChain(cls: Function): Function[] {
  const chain: Function[] = [cls];
  for (let base = Object.getPrototypeOf(cls); base && base.prototype !== undefined; base = Object.getPrototypeOf(base)) {
    chain.unshift(base);
  }
  return chain;
}

const UNKNOWN_LAYOUT = 'class-transformer metadata storage has an unknown layout';

type PerClass<V> = Map<Function, Map<string | undefined, V>>;
interface TransformerInternals {
  readonly types: PerClass<TypeMetadata>;
  readonly transforms: PerClass<TransformMetadata[]>;
  readonly exposes: PerClass<ExposeMetadata>;
  readonly excludes: PerClass<ExcludeMetadata>;
}

/**
 * class-transformer's per-class maps, which its public API does not list (nothing there
 * enumerates the properties of a class that carry only `@Type` or `@Transform`); undefined when a
 * release stores them differently.
 */
function transformerInternals(): TransformerInternals | undefined {
  const store = classTransformerStorage() as unknown as Partial<Record<string, unknown>>;
  const { _typeMetadatas: types, _transformMetadatas: transforms, _exposeMetadatas: exposes, _excludeMetadatas: excludes } = store;
  if (!(types instanceof Map && transforms instanceof Map && exposes instanceof Map && excludes instanceof Map)) return undefined;
  return { types, transforms, exposes, excludes } as TransformerInternals;
}

/**
 * The properties `cls` itself (not an ancestor) decorates for class-transformer, in the order
 * `@Expose`, `@Exclude`, `@Type`, `@Transform`, each name once; throws when class-transformer's
 * store has an unknown layout.
 */
export function ownTransformerProperties(cls: Function): string[] {
  const internals = transformerInternals();
  if (!internals) throw new Error(UNKNOWN_LAYOUT);
  const names = new Set<string>();
  for (const map of [internals.exposes, internals.excludes, internals.types, internals.transforms]) {
    for (const key of map.get(cls)?.keys() ?? []) if (key !== undefined) names.add(key);
  }
  return [...names];
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
  const internals = transformerInternals();
  // Enumerating every decorated property needs the private maps; if a release renames them we
  // cannot tell what is decorated, so every model falls back rather than guess.
  if (!internals) {
    unsupported.push(UNKNOWN_LAYOUT);
    return { types, unsupported };
  }
  if (transformer.getStrategy(cls) !== 'none') unsupported.push('class-level @Expose/@Exclude');
  if (transformer.getExposedMetadatas(cls).length > 0) unsupported.push('@Expose');
  if (transformer.getExcludedMetadatas(cls).length > 0) unsupported.push('@Exclude');
  // Farthest ancestor first, so a nearer declaration overwrites a farther one.
  for (const owner of classChain(cls)) {
    const transforms = internals.transforms.get(owner);
    // `@IsRecord`'s own transform is run natively (analyse.ts); any other one is not.
    const foreign = [...(transforms?.values() ?? [])].some((list) => list.some((meta) => !isRecordTransform(meta.transformFn)));
    if (foreign) unsupported.push(`@Transform on ${owner.name}`);
    const typed = internals.types.get(owner);
    if (typed) for (const [key, meta] of typed) if (key !== undefined) types.set(key, meta);
  }
  return { types, unsupported };
}

/**
 * Registers a copy of `meta` (one class-validator rule) as a rule of `target`, as if its
 * decorator had been written there: mapped types give a new class the rules of another.
 */
export function addValidationRuleTo(target: Function, meta: ValidationMeta): void {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(meta) as object) as ValidationMeta, meta, { target });
  classValidator().getMetadataStorage().addValidationMetadata(copy);
}

/**
 * Every class-transformer record that applies to the properties of `cls`, own and inherited,
 * resolved the way class-transformer resolves them; class-level `@Expose()`/`@Exclude()` sit
 * under the key `undefined` (only the class's own count: class-transformer does not inherit them).
 */
export interface TransformerRecords {
  /** `@Type`, nearest declaration per property. */
  readonly types: Map<string, TypeMetadata>;
  /** `@Expose`, nearest declaration per property. */
  readonly exposes: Map<string | undefined, ExposeMetadata>;
  /** `@Exclude`, nearest declaration per property. */
  readonly excludes: Map<string | undefined, ExcludeMetadata>;
  /** `@Transform`s per property, in the order class-transformer applies them. */
  readonly transforms: Map<string, TransformMetadata[]>;
}

/** Reads `cls`'s {@link TransformerRecords}; throws when class-transformer's store has an unknown layout. */
export function transformerRecords(cls: Function): TransformerRecords {
  const internals = transformerInternals();
  if (!internals) throw new Error(UNKNOWN_LAYOUT);
  const { types, exposes, excludes, transforms } = internals;
  const chain = classChain(cls); // farthest first: nearer declarations overwrite
  const records: TransformerRecords = { types: new Map(), exposes: new Map(), excludes: new Map(), transforms: new Map() };
  for (const owner of chain) {
    const own = owner === cls;
    for (const [key, meta] of types.get(owner) ?? []) if (key !== undefined) records.types.set(key, meta);
    for (const [key, meta] of exposes.get(owner) ?? []) if (key !== undefined || own) records.exposes.set(key, meta);
    for (const [key, meta] of excludes.get(owner) ?? []) if (key !== undefined || own) records.excludes.set(key, meta);
  }
  // class-transformer applies an ancestor's transforms (collected nearest ancestor first) reversed,
  // then the class's own reversed.
  const keys = new Set(chain.flatMap((owner) => [...(transforms.get(owner)?.keys() ?? [])]));
  for (const key of keys) {
    if (key === undefined) continue;
    const inherited = chain.slice(0, -1).reverse().flatMap((owner) => transforms.get(owner)?.get(key) ?? []);
    const applied = [...inherited.reverse(), ...[...(transforms.get(cls)?.get(key) ?? [])].reverse()];
    if (applied.length > 0) records.transforms.set(key, applied);
  }
  return records;
}

/**
 * Registers `records` (or those whose property `keep` accepts) as `target`'s own, so that
 * class-transformer treats `target` and its subclasses as it treated the class they came from.
 */
export function addTransformerRecordsTo(target: Function, records: TransformerRecords, keep: (key: string) => boolean): void {
  const storage = classTransformerStorage();
  const kept = (key: string | undefined) => key === undefined || keep(key);
  for (const [key, meta] of records.types) if (kept(key)) storage.addTypeMetadata({ ...meta, target });
  for (const [key, meta] of records.exposes) if (kept(key)) storage.addExposeMetadata({ ...meta, target });
  for (const [key, meta] of records.excludes) if (kept(key)) storage.addExcludeMetadata({ ...meta, target });
  for (const [key, applied] of records.transforms) {
    if (!kept(key)) continue;
    // Own transforms are applied last added first: register them reversed to keep the order.
    for (const meta of [...applied].reverse()) storage.addTransformMetadata({ ...meta, target });
  }
}
