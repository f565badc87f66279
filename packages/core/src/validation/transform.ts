/**
 * Per request, step 1: build the model instance from parsed JSON exactly as class-transformer's
 * `plainToInstance(model, input)` does with default options: the same constructor calls, the same
 * keys in the same order, the same `@Type` conversions. `codegen.ts` generates the common case per
 * class; the functions here are the general rules it falls back on (and the whole step when code
 * generation is unavailable).
 */
import { ensureCompiled } from './codegen';
import { planFor } from './analyse';
import type { BuildFn, ClassPlan, TypeSpec } from './plan';
import { NEEDS_FALLBACK, TOO_DEEP } from './signals';

type Conversion = 'string' | 'number' | 'boolean' | 'date';

let plainObjects: ClassPlan | undefined;

/**
 * Where untyped objects go: class-transformer copies them into a fresh `{}`. Analysed when the
 * first model is compiled (`compileModel` compiles it with the model), not when Tern loads:
 * analysing reads class-validator's metadata, which an app without models never loads.
 */
export function plainObjectPlan(): ClassPlan {
  return (plainObjects ??= planFor(Object));
}

/**
 * class-transformer's rule for one key of `source` while building `out`: it skips `__proto__`,
 * `constructor`, and any name that is a method or a getter-only accessor on the new object (it
 * never calls or overwrites functions when building an instance).
 */
export function copyKey(plan: ClassPlan, source: any, out: any, key: string, depth: number, maxDepth: number): void {
  if (key === '__proto__' || key === 'constructor' || plan.readOnly.has(key) || out[key] instanceof Function) return;
  const value = transformValue(plan.types.get(key), source[key], depth + 1, maxDepth);
  if (value !== undefined) out[key] = value;
}

/** The general build: every key of `source`, in order. */
export function interpretBuild(plan: ClassPlan): BuildFn {
  return (source, depth, maxDepth) => {
    if (depth > maxDepth) throw TOO_DEEP;
    assertPlain(source);
    const out = new plan.cls();
    for (const key of Object.keys(source)) copyKey(plan, source, out, key, depth, maxDepth);
    return out;
  };
}

/** The keys a generated build did not handle by name, in input order. */
export function copyOthers(plan: ClassPlan, fast: Set<string>, source: object, out: any, depth: number, maxDepth: number): void {
  for (const key of Object.keys(source)) if (!fast.has(key)) copyKey(plan, source, out, key, depth, maxDepth);
}

/**
 * JSON only makes plain objects; anything else (Date, Buffer, Map, promises…) has special cases in
 * class-transformer, so the whole input is left to class-transformer.
 */
export function assertPlain(value: object): void {
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) throw NEEDS_FALLBACK;
}

/** class-transformer's `transform` for one value; `depth` is the nesting level of `value`. */
export function transformValue(spec: TypeSpec | undefined, value: unknown, depth: number, maxDepth: number): unknown {
  if (spec === undefined) return typeof value === 'object' && value !== null ? plain(value, depth, maxDepth) : value;
  if (spec.kind === 'class') {
    if (typeof value !== 'object' || value === null) return value;
    return Array.isArray(value) ? buildArray(spec.plan, value, depth, maxDepth) : ensureCompiled(spec.plan).build!(value, depth, maxDepth);
  }
  return Array.isArray(value) ? convertArray(spec.kind, value, depth, maxDepth) : convert(spec.kind, value);
}

/** An untyped object or array: class-transformer copies it into a fresh `{}` / `[]`. */
export function plain(value: object, depth: number, maxDepth: number): unknown {
  if (Array.isArray(value)) {
    if (depth > maxDepth) throw TOO_DEEP;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const element = value[i];
      out.push(typeof element === 'object' && element !== null ? plain(element, depth + 1, maxDepth) : element);
    }
    return out;
  }
  assertPlain(value);
  // class-transformer guesses an untyped object's class from `value.constructor`; an own
  // `constructor` key makes it guess wrong (and usually throw): reproduce that on the fallback.
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor !== Object && ctor !== undefined) throw NEEDS_FALLBACK;
  return ensureCompiled(plainObjectPlan()).build!(value, depth, maxDepth);
}

/** An array where a class is expected: class-transformer converts each element to the class. */
export function buildArray(plan: ClassPlan, value: unknown[], depth: number, maxDepth: number): unknown[] {
  if (depth > maxDepth) throw TOO_DEEP;
  const build = ensureCompiled(plan).build!;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    if (typeof element !== 'object' || element === null) out.push(element);
    else if (Array.isArray(element)) out.push(buildArray(plan, element, depth + 1, maxDepth));
    else out.push(build(element, depth + 1, maxDepth));
  }
  return out;
}

/** An array where `@Type(() => String | Number | Boolean | Date)` applies: each element converted. */
export function convertArray(kind: Conversion, value: unknown[], depth: number, maxDepth: number): unknown[] {
  if (depth > maxDepth) throw TOO_DEEP;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    out.push(Array.isArray(element) ? convertArray(kind, element, depth + 1, maxDepth) : convert(kind, element));
  }
  return out;
}

function convert(kind: Conversion, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (kind) {
    case 'string':
      return String(value);
    case 'number':
      return Number(value);
    case 'boolean':
      return Boolean(value);
    case 'date':
      return value instanceof Date ? new Date(value.valueOf()) : new Date(value as string);
  }
}
