/**
 * The filtered value itself, for checks that need data rather than text (running the model's
 * validator on what is sent). It walks the plan directly: it is not on the hot path, and
 * `JSON.stringify(filterValue(plan, v))` equals the compiled serializer's text by construction
 * (the property test checks both against an independent reference).
 */
import { MAX_RESPONSE_DEPTH, nesting, tooDeep } from './json-bytes';
import { isBoxedPrimitive, scalarOf } from './json-values';
import { holdsScalar, type ObjectPlan, type RecordPlan, type ValuePlan } from './plan';

/**
 * `value` reduced to what `plan` declares: declared objects become plain objects with only
 * their declared fields (renamed where `@Expose({ name })` says, `undefined` ones left out),
 * `toJSON` is applied where a declared object is expected, arrays there are filtered item by
 * item, and a primitive there (a string, number or boolean, boxed or not) is left out: it is no
 * model, and it could hold anything (fail closed). `null` stays; undeclared values are returned
 * as they are, for `JSON.stringify` to write.
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
    return value;
  }
  return notDeclared(value);
}

/** What stands where an object is declared but is not one: `null` is written, anything else left out. */
export function notDeclared(value: unknown): null | undefined {
  return value === null ? null : undefined;
}

/** `toJSON`'s result is taken as it is: its own `toJSON`, if any, is not called again. */
function filterJSONed(plan: ObjectPlan | RecordPlan, value: unknown, key: string): unknown {
  if (typeof value === 'function') return undefined;
  if (typeof value === 'object' && value !== null) return filterDeclared(plan, value, key);
  return notDeclared(value);
}

function filterDeclared(plan: ObjectPlan | RecordPlan, value: object, _key: string): unknown {
  // A list met where a map is declared is taken for what it is, a map of its indexes: read item
  // by item as maps, each of its models would keep every key (issue 42 item 6).
  if (plan.kind === 'record') return isBoxedPrimitive(value) ? undefined : filterEntries(plan, value);
  if (Array.isArray(value)) {
    const items: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) items[i] = filterValue(plan, value[i], String(i));
    return items;
  }
  if (isBoxedPrimitive(value)) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of plan.fields) {
    const item = (value as Record<string, unknown>)[field.read];
    if (item === undefined) continue;
    const filtered = holdsScalar(field) ? scalarOf(item, field.write) : filterValue(field.value, item, field.write);
    if (filtered !== undefined) out[field.write] = filtered;
  }
  return out;
}

/**
 * A map's own keys, each value filtered by the record's value type; `__proto__` is never
 * written (a client building an object from it would replace its prototype). Nested maps count
 * towards the serializer's depth limit, so a cycle through them is an error, not a stack overflow.
 */
function filterEntries(plan: RecordPlan, value: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  try {
    if (++nesting.depth > MAX_RESPONSE_DEPTH) tooDeep();
    for (const key of Object.keys(value)) {
      if (key === '__proto__') continue;
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const filtered = plan.list && Array.isArray(item) ? item.map((element, i) => entryValue(plan, element, String(i))) : entryValue(plan, item, key);
      if (filtered !== undefined) out[key] = filtered;
    }
  } finally {
    nesting.depth--;
  }
  return out;
}

/** One value of a map (or one item of a list value): a scalar type never carries an object. */
function entryValue(plan: RecordPlan, value: unknown, key: string): unknown {
  const scalar = plan.hint === 'string' || plan.hint === 'number' || plan.hint === 'boolean';
  return scalar ? scalarOf(value, key) : filterValue(plan.value, value, key);
}
