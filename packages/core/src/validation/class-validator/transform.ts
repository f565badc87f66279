/**
 * Per request, step 1: build the model instance from parsed JSON exactly as class-transformer's
 * `plainToInstance(model, input)` does with default options: the same constructor calls, the same
 * keys in the same order, the same `@Type` conversions. `codegen.ts` generates the common case per
 * class; the functions here are the general rules it falls back on (and the whole step when code
 * generation is off or unavailable). Other classes' functions are reached through `cx.resolve`,
 * so this module never imports the engine that compiles them.
 */
import { plainObjectPlan } from './analyse';
import type { BuildContext, BuildFn, ClassPlan, ModelInstance, RecordType, TypeSpec } from './plan';
import { withEveryKey, withInstances } from './record';
import { NEEDS_FALLBACK, NOT_CONVERTIBLE, TOO_DEEP, TOO_MANY_KEYS } from './signals';

type Conversion = 'string' | 'number' | 'boolean' | 'date';

/**
 * class-transformer's rule for one key of `source` while building `out`: it skips `__proto__`,
 * `constructor`, and any name that is a method or a getter-only accessor on the new object (it
 * never calls or overwrites functions when building an instance).
 */
export function copyKey(plan: ClassPlan, source: ModelInstance, out: ModelInstance, key: string, depth: number, cx: BuildContext): void {
  if (key === '__proto__' || key === 'constructor' || plan.readOnly.has(key) || out[key] instanceof Function) return;
  const value = transformValue(plan.types.get(key), source[key], depth + 1, cx);
  if (value !== undefined) out[key] = value;
}

/** The general build: every key of `source`, in order. */
export function interpretBuild(plan: ClassPlan): BuildFn {
  return (source, depth, cx) => {
    if (depth > cx.maxDepth) throw TOO_DEEP;
    assertPlain(source);
    const keys = Object.keys(source);
    if (keys.length > cx.maxKeys) throw TOO_MANY_KEYS;
    const out = new plan.cls();
    for (const key of keys) copyKey(plan, source as ModelInstance, out, key, depth, cx);
    return out;
  };
}

/** The keys a generated build did not handle by name, in input order. */
export function copyOthers(plan: ClassPlan, fast: Set<string>, source: object, out: ModelInstance, depth: number, cx: BuildContext): void {
  for (const key of Object.keys(source)) if (!fast.has(key)) copyKey(plan, source as ModelInstance, out, key, depth, cx);
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
export function transformValue(spec: TypeSpec | undefined, value: unknown, depth: number, cx: BuildContext): unknown {
  if (spec === undefined) return typeof value === 'object' && value !== null ? plain(value, depth, cx) : value;
  if (spec.kind === 'record') return buildRecord(spec, value, depth, cx);
  if (spec.kind === 'class') {
    if (typeof value !== 'object' || value === null) return value;
    return Array.isArray(value) ? buildArray(spec.plan, value, depth, cx) : cx.resolve(spec.plan).build(value, depth, cx);
  }
  return Array.isArray(value) ? convertArray(spec.kind, value, depth, cx) : convert(spec.kind, value);
}

/**
 * `@IsRecord`: class-transformer's copy of the value (as for any untyped object), its model
 * values then built as their class, as the record's `@Transform` does on the fallback path.
 */
export function buildRecord(spec: RecordType, value: unknown, depth: number, cx: BuildContext): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const copy = withEveryKey(plain(value, depth, cx), value);
  const plan = spec.plan;
  if (plan === undefined) return copy;
  const build = cx.resolve(plan).build;
  return withInstances(spec.spec, copy, (item, nesting) => build(item, depth + nesting, cx));
}

/** An untyped object or array: class-transformer copies it into a fresh `{}` / `[]`. */
export function plain(value: object, depth: number, cx: BuildContext): unknown {
  if (Array.isArray(value)) {
    if (depth > cx.maxDepth) throw TOO_DEEP;
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const element = value[i];
      out.push(typeof element === 'object' && element !== null ? plain(element, depth + 1, cx) : element);
    }
    return out;
  }
  assertPlain(value);
  // class-transformer guesses an untyped object's class from `value.constructor`. An own
  // `constructor` key (JSON can hold one) makes it call `new` on that key's value, which throws
  // for every truthy JSON value; a falsy one makes it fall back to a plain `{}`, as here. Both
  // are answered here: a key's name never sends a request to the (slower) fallback.
  const ctor = (value as { constructor?: unknown }).constructor;
  if (ctor !== Object && ctor) throw NOT_CONVERTIBLE;
  return cx.resolve(plainObjectPlan()).build(value, depth, cx);
}

/** An array where a class is expected: class-transformer converts each element to the class. */
export function buildArray(plan: ClassPlan, value: unknown[], depth: number, cx: BuildContext): unknown[] {
  if (depth > cx.maxDepth) throw TOO_DEEP;
  const build = cx.resolve(plan).build;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    if (typeof element !== 'object' || element === null) out.push(element);
    else if (Array.isArray(element)) out.push(buildArray(plan, element, depth + 1, cx));
    else out.push(build(element, depth + 1, cx));
  }
  return out;
}

/** An array where `@Type(() => String | Number | Boolean | Date)` applies: each element converted. */
export function convertArray(kind: Conversion, value: unknown[], depth: number, cx: BuildContext): unknown[] {
  if (depth > cx.maxDepth) throw TOO_DEEP;
  const out: unknown[] = [];
  for (let i = 0; i < value.length; i++) {
    const element = value[i];
    out.push(Array.isArray(element) ? convertArray(kind, element, depth + 1, cx) : convert(kind, element));
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
