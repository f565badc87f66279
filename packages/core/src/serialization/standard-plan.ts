/**
 * The filter plan of a Standard Schema response: read from the JSON Schema of its output
 * (`~standard.jsonSchema.output`). An object with `properties` writes only those properties
 * (zod's `z.object` strips unknown keys; its output schema closes the object), unless it says
 * `additionalProperties` other than `false` (`z.looseObject`, `.catchall()`): then it is written
 * whole. A list is filtered item by item; unions, tuples and anything else are written whole.
 * A schema that cannot describe itself is written whole (the document refuses it anyway, unless
 * the route is left out of it).
 */
import { standardJsonSchema, type StandardSchemaV1 } from '../validation/standard-schema';
import type { AnyPlan, FieldPlan, Hint, ObjectPlan, ValuePlan } from './plan';

/** As plan.ts's `ANY` (plans are told apart by `kind`); its own so the two files do not import each other at run time. */
const ANY: AnyPlan = Object.freeze({ kind: 'any' });

type Node = Record<string, unknown>;

/**
 * The plan of one Standard Schema's output.
 *
 * @example
 * standardSchemaPlan(z.object({ id: z.int() })); // { kind: 'object', label: 'schema', fields: [{ read: 'id', write: 'id', ... }] }
 */
export function standardSchemaPlan(schema: StandardSchemaV1, checkedKey: (key: string, where: string) => string): ValuePlan {
  let root: Node;
  try {
    root = standardJsonSchema(schema, 'output');
  } catch {
    return ANY;
  }
  const plans = new Map<Node, ValuePlan>();

  const resolve = (node: Node, depth: number): Node | undefined => {
    const ref = node.$ref;
    if (typeof ref !== 'string') return node;
    if (depth > 32) return undefined;
    if (ref === '#') return root;
    const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
    const target = match ? (root[match[1]] as Record<string, Node> | undefined)?.[match[2]] : undefined;
    return isNode(target) ? resolve(target, depth + 1) : undefined;
  };

  const plan = (given: unknown, where: string): ValuePlan => {
    if (!isNode(given)) return ANY;
    const node = resolve(given, 0);
    if (node === undefined) return ANY;
    const known = plans.get(node);
    if (known !== undefined) return known;
    const types = ([] as unknown[]).concat(node.type ?? []);
    if (types.includes('array')) {
      // A list is filtered item by item (see plan.ts); a tuple's positions may differ: written whole.
      if (node.prefixItems !== undefined || types.includes('object')) return ANY;
      const items = plan(node.items, `${where}[]`);
      plans.set(node, items);
      return items;
    }
    const properties = node.properties;
    const open = node.additionalProperties !== undefined && node.additionalProperties !== false;
    if (!isNode(properties) || open || (types.length > 0 && !types.includes('object')) || node.patternProperties !== undefined) return ANY;
    const object: ObjectPlan = { kind: 'object', label: typeof node.title === 'string' ? node.title : 'schema', fields: [] };
    plans.set(node, object);
    const fields: FieldPlan[] = Object.entries(properties).map(([name, property]) => ({
      read: checkedKey(name, where),
      write: name,
      value: plan(property, `${where}.${name}`),
      hint: hintOf(property),
    }));
    // Array-index keys first, as a JavaScript object lists them (the writers rely on it).
    const indexes = fields.filter((field) => isArrayIndex(field.write)).sort((a, b) => Number(a.write) - Number(b.write));
    object.fields.push(...indexes, ...fields.filter((field) => !isArrayIndex(field.write)));
    return object;
  };
  return plan(root, 'schema');
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A key JavaScript orders first among an object's keys, ascending (an array index). */
export function isArrayIndex(key: string): boolean {
  const n = Number(key);
  return String(n >>> 0) === key && n !== 2 ** 32 - 1;
}

/** A scalar type alone (not `['string', 'null']`): the writers may test for it first. */
function hintOf(property: unknown): Hint {
  if (!isNode(property)) return undefined;
  switch (property.type) {
    case 'string':
      return 'string';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}
