/**
 * Generated writers, as fast-json-stringify generates them from a JSON schema: one function per
 * declared object that reads each declared property by its literal name and appends its JSON,
 * so V8 sees monomorphic property loads and can inline the small helpers. Only property names
 * (as JSON string literals, which are valid JavaScript string literals) are written into the
 * source; the helpers are passed in as arguments.
 */
import { isBoxedPrimitive, isStandardDate, labeledString, unbox, writeAny, writeDate, writeNumber } from './json-values';
import type { FieldPlan, ObjectPlan, ValuePlan } from './plan';
import type { ValueWriter } from './writers';

const HELPERS = { labeledString, writeAny, writeDate, writeNumber, isStandardDate, isBoxedPrimitive, unbox } as const;

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
  const index = new Map(plans.map((plan, i) => [plan, i]));
  const source = plans.map((plan, i) => `${entryFunctions(i)}\n${fieldsFunction(plan, `f${i}`, index)}`).join('\n');
  const body = `'use strict';\n${source}\nreturn m0;`;
  return new Function(...Object.keys(HELPERS), body)(...Object.values(HELPERS)) as ValueWriter;
}

/**
 * What `declaredObjectWriter` (writers.ts) does, generated once per declared object so that
 * each has its own call sites: a shared closure would see every model's fields function at one
 * call site and V8 could no longer inline it.
 */
function entryFunctions(i: number): string {
  return `function m${i}(x, k) {
  if (typeof x === 'object' && x !== null) {
    const toJSON = x.toJSON;
    if (typeof toJSON !== 'function') return d${i}(x, k);
    return j${i}(toJSON.call(x, String(k)), k);
  }
  if (typeof x === 'function' && typeof x.toJSON === 'function') return j${i}(x.toJSON(String(k)), k);
  return writeAny(x, k);
}
function d${i}(x, k) {
  if (Array.isArray(x)) {
    let out = '[';
    for (let n = 0; n < x.length; n++) {
      if (n > 0) out += ',';
      const s = m${i}(x[n], n);
      out += s === undefined ? 'null' : s;
    }
    return out + ']';
  }
  if (isBoxedPrimitive(x)) return writeAny(unbox(x), k);
  return f${i}(x);
}
function j${i}(x, k) {
  if (typeof x === 'object' && x !== null) return d${i}(x, k);
  if (typeof x === 'function') return undefined;
  return writeAny(x, k);
}`;
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
  const lines = plan.fields.map((field) => [`  x = v[${JSON.stringify(field.read)}];`, `  if (x !== undefined) {`, ...fieldStatements(field, index), `  }`].join('\n'));
  return [`function ${name}(v) {`, `  let out = '', x, s;`, ...lines, `  return out === '' ? '{}' : out + '}';`, `}`].join('\n');
}

/**
 * Appends the field `x` (known not to be `undefined`) to `out`, testing first for the type the
 * field declares. Labels are literals, and joined with a value where they can be (`,"active":true`),
 * so that the body is a rope of as few strings as possible.
 */
function fieldStatements(field: FieldPlan, index: Map<ObjectPlan, number>): string[] {
  const key = JSON.stringify(field.write);
  const label = (text: string) => `(out === '' ? ${JSON.stringify('{' + text)} : ${JSON.stringify(',' + text)})`;
  const labelled = (value: string) => [`    s = ${value};`, `    if (s !== undefined) out += ${label(key + ':')} + s;`];
  const general = `writeAny(x, ${key})`;
  const value: ValuePlan = field.value;
  if (value.kind === 'object') return labelled(`m${index.get(value)}(x, ${key})`);
  switch (field.hint) {
    case 'string':
      return [`    if (typeof x === 'string') out += labeledString(${label(key + ':')}, x);`, `    else {`, ...labelled(general), `    }`];
    case 'number':
      return labelled(`typeof x === 'number' ? writeNumber(x) : ${general}`);
    case 'boolean':
      return [
        `    if (x === true) out += ${label(key + ':true')};`,
        `    else if (x === false) out += ${label(key + ':false')};`,
        `    else {`,
        ...labelled(general),
        `    }`,
      ];
    case 'date':
      return labelled(`isStandardDate(x) ? writeDate(x) : ${general}`);
    default:
      return labelled(general);
  }
}
