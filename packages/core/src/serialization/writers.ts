/**
 * The two ways of compiling a plan into a writer: generated code (`codegen.ts`) and closures
 * over the plan (here). Both share `declaredObjectWriter`, which does what `JSON.stringify`
 * does to a value before looking at its properties; they differ only in how the declared
 * fields of one object are written.
 */
import { MAX_RESPONSE_DEPTH, nesting, tooDeep } from './json-bytes';
import { isBoxedPrimitive, scalarOf, writeAny } from './json-values';
import { filterValue } from './filter';
import { holdsScalar, type ObjectPlan, type ValuePlan } from './plan';

/** Writes one value met under `key`; `undefined` means "left out" as in `JSON.stringify`. */
export type ValueWriter = (value: unknown, key: string | number) => string | undefined;

/** Writes the declared fields of an object that is neither an array nor boxed, `toJSON` done. */
export type FieldsWriter = (value: object) => string;

/** Filled once the fields writer exists, which lets models refer to themselves. */
export interface FieldsSlot {
  write: FieldsWriter;
}

/**
 * The writer of a declared object: `null` is written and other primitives (boxed or not) left
 * out, as no model can be one, `toJSON` is called once (with the key) and its result filtered,
 * an array is filtered item by item, and anything else gets only its declared fields.
 *
 * @example
 * const slot: FieldsSlot = { write: (user) => `{"id":${(user as { id: number }).id}}` };
 * declaredObjectWriter(slot)([{ id: 1, hash: 'x' }], ''); // '[{"id":1}]'
 */
export function declaredObjectWriter(slot: FieldsSlot): ValueWriter {
  const writeDeclared = (value: object): string | undefined => {
    try {
      if (++nesting.depth > MAX_RESPONSE_DEPTH) tooDeep();
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) {
          if (i > 0) out += ',';
          out += writeValue(value[i], i) ?? 'null';
        }
        return out + ']';
      }
      if (isBoxedPrimitive(value)) return undefined;
      return slot.write(value);
    } finally {
      nesting.depth--;
    }
  };
  const writeValue: ValueWriter = (value, key) => {
    if ((typeof value === 'object' && value !== null) || typeof value === 'function') {
      const toJSON = (value as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') return writeJSONed(toJSON.call(value, String(key)));
      if (typeof value === 'object') return writeDeclared(value);
      return undefined;
    }
    return value === null ? 'null' : undefined;
  };
  /** What `toJSON` gave is used as it is: its own `toJSON`, if any, is not called again. */
  const writeJSONed = (value: unknown): string | undefined => {
    if (typeof value === 'object' && value !== null) return writeDeclared(value);
    if (typeof value === 'function') return undefined;
    return value === null ? 'null' : undefined;
  };
  return writeValue;
}

/** One field prepared for the closure writer. */
interface PreparedField {
  readonly read: string;
  readonly key: string;
  /** `{"key":` when the field is the first written, `,"key":` otherwise. */
  readonly first: string;
  readonly next: string;
  readonly write: ValueWriter;
}

/**
 * Writers built from closures over the plan: the fallback when code generation is not allowed,
 * and the baseline the benchmark compares generated code with.
 *
 * @example
 * const write = closureWriter(planResponse(UserDto, defaultModelCompiler)!);
 * write(user, ''); // '{"id":1,"email":"ada@example.com"}'
 */
export function closureWriter(root: ObjectPlan): ValueWriter {
  const writers = new Map<ObjectPlan, ValueWriter>();
  const writerOf = (plan: ValuePlan): ValueWriter => {
    if (plan.kind === 'any') return writeAny;
    if (plan.kind === 'record') return (value, key) => writeAny(filterValue(plan, value, String(key)), key);
    let writer = writers.get(plan);
    if (writer === undefined) {
      const slot: FieldsSlot = { write: () => '{}' };
      writer = declaredObjectWriter(slot);
      writers.set(plan, writer);
      slot.write = fieldsWriter(
        plan.fields.map((field) => {
          const name = JSON.stringify(field.write) + ':';
          const write = holdsScalar(field) ? writeScalar : writerOf(field.value);
          return { read: field.read, key: field.write, first: '{' + name, next: ',' + name, write };
        }),
      );
    }
    return writer;
  };
  return writerOf(root);
}

const writeScalar: ValueWriter = (value, key) => writeAny(scalarOf(value, key), key);

function fieldsWriter(fields: PreparedField[]): FieldsWriter {
  return (value) => {
    let out = '';
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const item = (value as Record<string, unknown>)[field.read];
      if (item === undefined) continue;
      const text = field.write(item, field.key);
      if (text === undefined) continue;
      out += (out === '' ? field.first : field.next) + text;
    }
    return out === '' ? '{}' : out + '}';
  };
}
