/**
 * Generated writers, as fast-json-stringify generates them from a JSON schema: one function per
 * declared object that reads each declared property by its literal name and writes its JSON,
 * so V8 sees monomorphic property loads and can inline the small helpers. They write UTF-8
 * bytes into one scratch buffer (json-bytes.ts), read back as one flat string at the end.
 * Only property names (as JSON string literals, which are valid JavaScript string literals) are
 * written into the source; the helpers are passed in as arguments.
 */
import { BYTE_HELPERS, MAX_RESPONSE_DEPTH, OMITTED, writeToBytes, writeToString, type ByteWriter } from './json-bytes';
import { isBoxedPrimitive, isStandardDate, scalarOf } from './json-values';
import { filterValue } from './filter';
import { holdsScalar, type FieldPlan, type ObjectPlan, type RecordPlan, type ValuePlan } from './plan';
import type { ValueWriter } from './writers';

/** What generated code may call, passed to it as arguments by these names. */
const HELPERS = { ...BYTE_HELPERS, isStandardDate, isBoxedPrimitive, scalarOf, filterValue } as const;

/**
 * The writer of `root` (and of every object declared under it) as generated code. Throws an
 * `EvalError` where code generation from strings is disallowed.
 *
 * @example
 * const write = generatedWriter(planResponse(UserDto, defaultModelCompiler)!);
 * write.text(user, ''); // '{"id":1,"email":"ada@example.com"}'
 * write.bytes(user, ''); // the same as UTF-8 bytes
 */
export function generatedWriter(root: ObjectPlan): { text: ValueWriter; bytes: BytesWriter } {
  const plans = reachable(root);
  const index = new Map(plans.map((plan, i) => [plan, i]));
  const records: RecordPlan[] = [];
  const source = plans.map((plan, i) => `${entryFunctions(i)}\n${fieldsFunction(plan, `f${i}`, index, records)}`).join('\n');
  const body = `'use strict';\n${source}\nreturn m0;`;
  const writeRoot = new Function(...Object.keys(HELPERS), 'records', body)(...Object.values(HELPERS), records) as ByteWriter;
  return { text: (value, key) => writeToString(writeRoot, value, key), bytes: (value, key) => writeToBytes(writeRoot, value, key) };
}

/** A writer that hands back the JSON as UTF-8 bytes (`undefined` where `JSON.stringify` gives `undefined`). */
export type BytesWriter = (value: unknown, key: string | number) => Buffer | undefined;

/**
 * What `declaredObjectWriter` (writers.ts) does, generated once per declared object so that
 * each has its own call sites: a shared closure would see every model's fields function at one
 * call site and V8 could no longer inline it. Each takes the position to write at and returns
 * the position after it, or `OMITTED` where `JSON.stringify` leaves the value out.
 */
function entryFunctions(i: number): string {
  return `function m${i}(p, x, k) {
  if (typeof x === 'object' && x !== null) {
    const toJSON = x.toJSON;
    if (typeof toJSON !== 'function') return d${i}(p, x, k);
    return j${i}(p, toJSON.call(x, String(k)), k);
  }
  if (typeof x === 'function' && typeof x.toJSON === 'function') return j${i}(p, x.toJSON(String(k)), k);
  return x === null ? putAscii(p, 'null') : ${OMITTED};
}
function d${i}(p, x, k) {
  try {
    if (++nesting.depth > ${MAX_RESPONSE_DEPTH}) tooDeep();
    if (Array.isArray(x)) {
      p = putByte(p, 91);
      for (let n = 0; n < x.length; n++) {
        if (n > 0) p = putByte(p, 44);
        const q = m${i}(p, x[n], n);
        p = q === ${OMITTED} ? putAscii(p, 'null') : q;
      }
      return putByte(p, 93);
    }
    if (isBoxedPrimitive(x)) return ${OMITTED};
    return f${i}(p, x);
  } finally {
    nesting.depth--;
  }
}
function j${i}(p, x, k) {
  if (typeof x === 'object' && x !== null) return d${i}(p, x, k);
  if (typeof x === 'function') return ${OMITTED};
  return x === null ? putAscii(p, 'null') : ${OMITTED};
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

/**
 * The fields function: each present field writes its label, then its value; a value left out
 * leaves the position where it was, label and all.
 */
function fieldsFunction(plan: ObjectPlan, name: string, index: Map<ObjectPlan, number>, records: RecordPlan[]): string {
  const labels: string[] = [];
  const lines = plan.fields.map((field, n) => {
    const label = JSON.stringify(field.write) + ':';
    labels.push(`const ${name}_${n}a = labelBytes(${JSON.stringify('{' + label)}), ${name}_${n}b = labelBytes(${JSON.stringify(',' + label)});`);
    return [
      `  x = v[${JSON.stringify(field.read)}];`,
      `  if (x !== undefined) {`,
      `    q = putBytes(p, p === start ? ${name}_${n}a : ${name}_${n}b);`,
      `    q = ${valueExpression(field, index, records)};`,
      `    if (q !== ${OMITTED}) p = q;`,
      `  }`,
    ].join('\n');
  });
  return [
    ...labels,
    `function ${name}(p, v) {`,
    `  const start = p;`,
    `  let x, q;`,
    ...lines,
    `  return p === start ? putAscii(p, '{}') : putByte(p, 125);`,
    `}`,
  ].join('\n');
}

/** Writes `x` (known not to be `undefined`) at `q`, testing first for the type the field declares. */
function valueExpression(field: FieldPlan, index: Map<ObjectPlan, number>, records: RecordPlan[]): string {
  const key = JSON.stringify(field.write);
  const value: ValuePlan = field.value;
  if (value.kind === 'object') return `m${index.get(value)}(q, x, ${key})`;
  // A map is rare in a response: filtered as data, then written as JSON.stringify writes it.
  if (value.kind === 'record') return `putAny(q, filterValue(records[${records.push(value) - 1}], x, ${key}), ${key})`;
  const general = holdsScalar(field) ? `putAny(q, scalarOf(x, ${key}), ${key})` : `putAny(q, x, ${key})`;
  switch (field.hint) {
    case 'string':
      return `typeof x === 'string' ? putString(q, x) : ${general}`;
    case 'number':
      return `typeof x === 'number' ? putNumber(q, x) : ${general}`;
    case 'boolean':
      return `x === true ? putAscii(q, 'true') : x === false ? putAscii(q, 'false') : ${general}`;
    case 'date':
      return `isStandardDate(x) ? putDate(q, x) : ${general}`;
    default:
      return general;
  }
}
