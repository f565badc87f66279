/**
 * What every mapped type does: make a new, unrelated class (a subclass would inherit every
 * property, and Pick/Omit must not) and give it the chosen properties' class-validator rules,
 * class-transformer records, `reflect-metadata` entries (`design:type`, which the OpenAPI schema
 * reads, and any other per-property metadata) and constructor defaults.
 *
 * The metadata is copied once, when the mapped type is made; decorators added to the source class
 * afterwards are not seen (decorators run when a class is defined, so this only matters for rules
 * registered by hand later).
 */
import 'reflect-metadata';
import { TernError } from '../errors/tern-error';
import {
  addTransformerRecordsTo,
  addValidationRuleTo,
  transformerRecords,
  validationMetadatas,
  type TransformerRecords,
  type ValidationMeta,
} from '../validation/class-validator/metadata';
import type { MappedType } from './types';
import { describeStandardSchema, isStandardSchema } from '../validation/standard-schema';

/** One class a mapped type takes properties from, and which of its properties it takes. */
export interface Inheritance {
  readonly source: Function;
  readonly keep: (key: string) => boolean;
}

/** A new mapped class and the class-validator rules it received, grouped by property in class-validator's order. */
export interface MappedClass<T> {
  readonly cls: MappedType<T>;
  readonly rules: ReadonlyMap<string, readonly ValidationMeta[]>;
}

/**
 * Throws unless `value` is a class. A DTO imported through a circular import is still `undefined`
 * when the importing module runs, which is the usual way to get here.
 */
export function assertClass(helper: string, value: unknown): asserts value is Function {
  if (isStandardSchema(value)) {
    throw new TernError(
      'TERN_INVALID_MAPPED_TYPE',
      `${helper}() maps class-validator classes, not ${describeStandardSchema(value)}: use the library's own helpers (zod: .partial(), .pick(), .omit(), .extend(); valibot: v.partial(), v.pick(), v.omit(); arktype: .partial(), .pick(), .omit(), .merge())`,
    );
  }
  if (typeof value === 'function' && typeof value.prototype === 'object' && value.prototype !== null) return;
  const got = value === undefined ? 'undefined (is the class imported through a circular import?)' : describe(value);
  throw new TernError('TERN_INVALID_MAPPED_TYPE', `${helper}() needs a class, got ${got}`);
}

/** Checks a Pick/Omit key list and returns the names as class-validator and class-transformer key them. */
export function propertyKeys(helper: string, source: Function, keys: unknown): Set<string> {
  if (!Array.isArray(keys)) {
    throw new TernError('TERN_INVALID_MAPPED_TYPE', `${helper}(${source.name}, keys): keys must be an array of property names, got ${describe(keys)}`);
  }
  const names = new Set<string>();
  for (const key of keys as unknown[]) {
    if (typeof key !== 'string' && typeof key !== 'number') {
      throw new TernError('TERN_INVALID_MAPPED_TYPE', `${helper}(${source.name}, keys): ${describe(key)} is not a property name`);
    }
    names.add(String(key));
  }
  return names;
}

/**
 * Makes the class `name`, carrying from each source the properties its `keep` accepts. Sources
 * later in the list win where single-valued metadata (`@Type`, `@Expose`, `design:type`) or a
 * default collide; validation rules of every source apply.
 */
export function createMappedClass<T>(name: string, inheritances: readonly Inheritance[]): MappedClass<T> {
  const copiers = inheritances.map(defaultsCopier);
  const Mapped = class {
    constructor() {
      for (const copy of copiers) copy(this);
    }
  };
  Object.defineProperty(Mapped, 'name', { value: name });

  const rules = new Map<string, ValidationMeta[]>();
  for (const { source, keep } of inheritances) {
    // The source's effective rules (own and inherited, overridden ones left out), in the order
    // class-validator visits them, so the new class reports failures in the same order.
    const described = new Set<string>();
    for (const meta of validationMetadatas(source)) {
      if (typeof meta.target !== 'function' || !keep(meta.propertyName)) continue;
      addValidationRuleTo(Mapped, meta);
      described.add(meta.propertyName);
      const list = rules.get(meta.propertyName);
      if (list) list.push(meta);
      else rules.set(meta.propertyName, [meta]);
    }
    const records = recordsOf(name, source);
    addTransformerRecordsTo(Mapped, records, keep);
    for (const key of keysOf(records)) if (keep(key)) described.add(key);
    copyReflectMetadata(source, Mapped, described);
  }
  return { cls: Mapped as unknown as MappedType<T>, rules };
}

function recordsOf(name: string, source: Function): TransformerRecords {
  try {
    return transformerRecords(source);
  } catch (error) {
    throw new TernError('TERN_INVALID_MAPPED_TYPE', `${name}: cannot read the class-transformer metadata of ${source.name}`, { cause: error });
  }
}

function keysOf(records: TransformerRecords): string[] {
  const keys = [...records.types.keys(), ...records.exposes.keys(), ...records.excludes.keys(), ...records.transforms.keys()];
  return keys.filter((key): key is string => key !== undefined);
}

/** Per-property `reflect-metadata` entries: `design:type`, and whatever other decorators stored there. */
function copyReflectMetadata(source: Function, target: Function, keys: Iterable<string>): void {
  const from = source.prototype as object;
  const to = target.prototype as object;
  for (const key of keys) {
    for (const metadataKey of Reflect.getMetadataKeys(from, key)) {
      Reflect.defineMetadata(metadataKey, Reflect.getMetadata(metadataKey, from, key), to, key);
    }
  }
}

/**
 * Gives each new instance the source's defaults (class field initialisers such as `page = 1`) for
 * the kept properties. Only properties whose default is not `undefined` are set: with ES2022 class
 * fields every declared property is an own property of the source's instances, and copying the
 * `undefined`s would give a PATCH body keys the client never sent (`Object.assign(entity, dto)`
 * would then wipe those fields). The source is constructed per instance, so a default object or
 * array is never shared between two requests. A source whose constructor throws without arguments
 * gives no defaults, as class-transformer could not construct it either.
 */
function defaultsCopier({ source, keep }: Inheritance): (instance: object) => void {
  const Source = source as new () => object;
  let constructible = true;
  return (instance) => {
    if (!constructible) return;
    let template: Record<string, unknown>;
    try {
      template = new Source() as Record<string, unknown>;
    } catch {
      constructible = false;
      return;
    }
    const target = instance as Record<string, unknown>;
    for (const key of Object.keys(template)) {
      const value = template[key];
      if (value !== undefined && keep(key)) target[key] = value;
    }
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value === 'function' ? `function ${value.name || '(anonymous)'}` : typeof value;
}
