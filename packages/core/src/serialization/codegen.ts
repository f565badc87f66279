/**
 * Generated writers, as fast-json-stringify generates them from a JSON schema: one function per
 * declared object that reads each declared property by its literal name and appends its JSON,
 * so V8 sees monomorphic property loads and can inline the small helpers. Only property names
 * (as JSON string literals, which are valid JavaScript string literals) are written into the
 * source; helpers and nested writers are passed in as arguments.
 */
import { isStandardDate, quote, writeAny, writeDate, writeNumber } from './json-values';
import type { FieldPlan, ObjectPlan, ValuePlan } from './plan';
import { declaredObjectWriter, type FieldsSlot, type FieldsWriter, type ValueWriter } from './writers';

const HELPERS = { quote, writeAny, writeDate, writeNumber, isStandardDate } as const;

/**
 * The writer of `root` (and of every object declared under it) as generated code. Throws an
 * `EvalError` where code generation from strings is disallowed.
 *
 * @example
 * const write = generatedWriter(planResponse(UserDto)!);
 * write(user, ''); // '{"id":1,"email":"ada@example.com"}'
 */
export function generatedWriter(root: ObjectPlan): ValueWriter {
  const plans = reachable(root);
  const slots: FieldsSlot[] = plans.map(() => ({ write: () => '{}' }));
  const entries = slots.map((slot) => declaredObjectWriter(slot));
  const index = new Map(plans.map((plan, i) => [plan, i]));
  const source = plans.map((plan, i) => fieldsFunction(plan, `f${i}`, index)).join('\n');
  const body = `'use strict';\n${source}\nreturn [${plans.map((_, i) => `f${i}`).join(', ')}];`;
  const names = [...Object.keys(HELPERS), ...entries.map((_, i) => `m${i}`)];
  const values = [...Object.values(HELPERS), ...entries];
  const generated = new Function(...names, body)(...values) as FieldsWriter[];
  generated.forEach((write, i) => (slots[i].write = write));
  return entries[0];
}

/** Every object plan under `root`, `root` first, each once. */
function reachable(root: ObjectPlan): ObjectPlan[] {
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const field of found[i].fields) {
      if (field.value.kind === 'object' && !found.includes(field.value)) found.push(field.value);
    }
  }
  return found;
}

function fieldsFunction(plan: ObjectPlan, name: string, index: Map<ObjectPlan, number>): string {
  const lines = plan.fields.map((field) => {
    const label = JSON.stringify(field.write) + ':';
    return [
      `  x = v[${JSON.stringify(field.read)}];`,
      `  if (x !== undefined) {`,
      `    s = ${valueExpression(field, index)};`,
      `    if (s !== undefined) out += (out === '' ? ${JSON.stringify('{' + label)} : ${JSON.stringify(',' + label)}) + s;`,
      `  }`,
    ].join('\n');
  });
  return [`function ${name}(v) {`, `  let out = '', x, s;`, ...lines, `  return out === '' ? '{}' : out + '}';`, `}`].join('\n');
}

/** The JSON of `x` (known not to be `undefined`), testing first for the type the field declares. */
function valueExpression(field: FieldPlan, index: Map<ObjectPlan, number>): string {
  const key = JSON.stringify(field.write);
  const value: ValuePlan = field.value;
  if (value.kind === 'object') return `m${index.get(value)}(x, ${key})`;
  const general = `writeAny(x, ${key})`;
  switch (field.hint) {
    case 'string':
      return `typeof x === 'string' ? quote(x) : ${general}`;
    case 'number':
      return `typeof x === 'number' ? writeNumber(x) : ${general}`;
    case 'boolean':
      return `x === true ? 'true' : x === false ? 'false' : ${general}`;
    case 'date':
      return `isStandardDate(x) ? writeDate(x) : ${general}`;
    default:
      return general;
  }
}
