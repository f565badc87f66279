/**
 * A property the client did not send is not an own property of the validated instance.
 *
 * With ES2022 class fields (`target` ES2022+ or `useDefineForClassFields`), `new Model()` defines
 * every declared field as an own property holding `undefined`, so the instance class-transformer
 * builds has `age: undefined` for an `age` the client left out, and `Object.assign(entity, dto)` in
 * a PATCH handler wipes `entity.age`. Compiled with `[[Set]]` semantics (ES2021, NestJS's default)
 * those fields do not exist until assigned. Tern gives both settings the ES2021 answer: a field the
 * constructor leaves `undefined` and the body does not fill is removed after building. A field the
 * class initialises (`role = 'user'`) keeps its default. JSON has no `undefined`, so an own
 * `undefined` left after building can only come from the constructor.
 */
import type { BuildFn, ClassPlan, ModelInstance } from './plan';

/**
 * The fields `new plan.cls()` defines as own `undefined` properties, in reverse definition order
 * (deleting the most recently added property first keeps V8's fast-delete path when the trailing
 * fields are the missing ones). Empty for `[[Set]]`-compiled classes: nothing to remove.
 */
export function unsentFieldCandidates(plan: ClassPlan): string[] {
  let probe: object;
  try {
    probe = new plan.cls();
  } catch {
    return []; // the build reports a throwing constructor itself
  }
  const keys: string[] = [];
  for (const key of Object.keys(probe)) if ((probe as Record<string, unknown>)[key] === undefined) keys.push(key);
  return keys.reverse();
}

/** Wraps `build` so that instances it returns have no own `undefined` fields (see the module comment). */
export function withoutUnsentFields(plan: ClassPlan, build: BuildFn): BuildFn {
  const keys = unsentFieldCandidates(plan);
  if (keys.length === 0) return build;
  const n = keys.length;
  return (source, depth, cx) => {
    const out = build(source, depth, cx) as ModelInstance;
    for (let i = 0; i < n; i++) if (out[keys[i]] === undefined) delete out[keys[i]];
    return out;
  };
}

/**
 * The same rule for an instance class-transformer built (the fallback path): every own
 * `undefined` property of class instances in the tree is removed. Plain objects and arrays are
 * walked; JSON never puts `undefined` in them, so only constructors' fields are affected.
 */
export function dropUndefinedFields(value: unknown, depth = 0): void {
  if (typeof value !== 'object' || value === null || depth > 1024) return;
  if (Array.isArray(value)) {
    for (const element of value) dropUndefinedFields(element, depth + 1);
    return;
  }
  if (value instanceof Date) return;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    const field = record[key];
    if (field === undefined) delete record[key];
    else dropUndefinedFields(field, depth + 1);
  }
}
