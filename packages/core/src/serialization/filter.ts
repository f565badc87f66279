/**
 * The filtered value itself, for checks that need data rather than text (running the model's
 * validator on what is sent). It walks the plan directly: it is not on the hot path, and
 * `JSON.stringify(filterValue(plan, v))` equals the compiled serializer's text by construction
 * (the property test checks both against an independent reference).
 */
import { isBoxedPrimitive, scalarOf, unbox } from './json-values';
import { holdsScalar, type ObjectPlan, type ValuePlan } from './plan';

/**
 * `value` reduced to what `plan` declares: declared objects become plain objects with only
 * their declared fields (renamed where `@Expose({ name })` says, `undefined` ones left out),
 * `toJSON` is applied where a declared object is expected, arrays there are filtered item by
 * item; everything else is returned as it is, for `JSON.stringify` to write.
 *
 * @example
 * filterValue(planResponse(UserDto, defaultModelCompiler)!, { id: 1, passwordHash: 'x' }, ''); // { id: 1 }
 */
export function filterValue(plan: ValuePlan, value: unknown, key: string): unknown {
  if (plan.kind === 'any') return value;
  if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return filterJSONed(plan, toJSON.call(value, key), key);
    if (typeof value === 'object') return filterDeclared(plan, value, key);
  }
  return value;
}

/** `toJSON`'s result is taken as it is: its own `toJSON`, if any, is not called again. */
function filterJSONed(plan: ObjectPlan, value: unknown, key: string): unknown {
  if (typeof value === 'function') return undefined;
  if (typeof value === 'object' && value !== null) return filterDeclared(plan, value, key);
  return value;
}

function filterDeclared(plan: ObjectPlan, value: object, _key: string): unknown {
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = filterValue(plan, value[i], String(i));
    return items;
  }
  if (isBoxedPrimitive(value)) return unbox(value);
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const item = (value as Record<string, unknown>)[field.read];
    if (item === undefined) continue;
    const filtered = holdsScalar(field) ? scalarOf(item, field.write) : filterValue(field.value, item, field.write);
    if (filtered !== undefined) out[field.write] = filtered;
  }
  return out;
}
