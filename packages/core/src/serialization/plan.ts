/**
 * A response schema (API.md "Route objects") turned into the tree both the filter and the
 * serializers walk. Three kinds of value exist: `any` (written as `JSON.stringify` would),
 * `object` (only the listed fields) and `record` (a map: every key, each value filtered). A list is not a kind of its own: an array met where an
 * object is declared is filtered item by item, so `[User]` and `User` filter alike and a handler
 * that returns one user where a list was declared (or the reverse) still leaks nothing.
 */
import { TernError } from '../errors/tern-error';
import { describeValue, isDescriptionShape, isModelClass, isPlainObject } from '../openapi/schema/shapes';
import { hasUntypedItems, modelClassOf } from '../openapi/schema/class-to-schema';
import { Integer } from '../openapi/schema/integer';
import type { ModelClass, ModelCompiler, PropertyDescription, RecordDescription } from '../validation/model-compiler';
import { isStandardSchema } from '../validation/standard-schema';
import { isArrayIndex, standardSchemaPlan } from './standard-plan';

/** A value written as `JSON.stringify` writes it. */
export interface AnyPlan {
  readonly kind: 'any';
}

/** A value of which only `fields` are written, in this order. */
export interface ObjectPlan {
  readonly kind: 'object';
  /** The class name or `shape`, for generated function names and messages. */
  readonly label: string;
  /** Filled after the plan is registered, so self-referencing models meet their own plan. */
  readonly fields: FieldPlan[];
}

/**
 * A map (`@IsRecord`): every own key is written, each value filtered as `value` (a model's
 * plan), or, for scalar values (`hint`), never as an object; `list`: each value is a list of them.
 */
export interface RecordPlan {
  readonly kind: 'record';
  readonly value: ValuePlan;
  readonly hint: Hint;
  readonly list: boolean;
}

export type ValuePlan = AnyPlan | ObjectPlan | RecordPlan;

/** What a field usually holds, so generated code can test for it first. */
export type Hint = 'string' | 'number' | 'boolean' | 'date' | undefined;

export interface FieldPlan {
  /** The property read on the value (own or inherited, getters included). */
  readonly read: string;
  /** The key written. */
  readonly write: string;
  readonly value: ValuePlan;
  readonly hint: Hint;
}

export const ANY: AnyPlan = Object.freeze({ kind: 'any' });

/** A field whose model says `String`, `Number` or `Boolean`: it is written through `scalarOf`, never as an object. */
export function holdsScalar(field: FieldPlan): boolean {
  return field.hint === 'string' || field.hint === 'number' || field.hint === 'boolean';
}

/**
 * The plan of one response schema, or `undefined` when it filters nothing (`{ description }`,
 * `String`, `[Number]`, a class that is not a model).
 *
 * @example
 * planResponse([UserDto], app.modelCompiler); // { kind: 'object', label: 'UserDto', fields: [...] }
 * planResponse({ description: 'Deleted' }, app.modelCompiler); // undefined
 * planResponse(ZodBackedUser, zodCompiler); // the properties zodCompiler.describe() lists
 */
export function planResponse(schema: unknown, compiler: ModelCompiler): ObjectPlan | undefined {
  if (schema === undefined || schema === null) return undefined;
  if (isPlainObject(schema) && isDescriptionShape(schema) && Object.keys(schema).length === 1) return undefined;
  const plan = new Planner(compiler).plan(schema, 'response');
  return plan.kind === 'object' ? plan : undefined;
}

class Planner {
  /** One plan per class: cycles end here, and a class nested twice is planned once. */
  private readonly models = new Map<Function, ObjectPlan>();

  constructor(private readonly compiler: ModelCompiler) {}

  plan(type: unknown, where: string): ValuePlan {
    if (isStandardSchema(type)) return standardSchemaPlan(type, checkedKey);
    if (typeof type === 'function') return this.classPlan(type);
    if (Array.isArray(type)) {
      if (type.length !== 1) invalid(`${where}: a list is written [Type] with exactly one type, got ${type.length}`);
      return this.plan(type[0], `${where}[0]`);
    }
    if (isPlainObject(type)) {
      const fields = Object.entries(type).map(([name, fieldType]): FieldPlan => ({
        read: checkedKey(name, where),
        write: name,
        value: this.plan(fieldType, `${where}.${name}`),
        hint: hintOf(fieldType),
      }));
      return { kind: 'object', label: 'shape', fields: inObjectKeyOrder(fields) };
    }
    return invalid(`${where}: expected a class, a constructor, [Type] or { field: Type }, got ${describeValue(type)}`);
  }

  /**
   * A model's properties are what the app's compiler describes (`describe()`), written under
   * their `outputName`, those `hiddenInOutput` left out. A class it describes no property of is
   * a plain TypeScript type, not a model: nothing to filter by, so its values are written whole
   * rather than as `{}`.
   */
  private classPlan(cls: unknown): ValuePlan {
    if (!isModelClass(cls)) return ANY;
    const known = this.models.get(cls);
    if (known) return known;
    const { properties } = this.compiler.describe(cls as ModelClass);
    if (properties.length === 0) return ANY;
    return this.model(cls, properties);
  }

  private recordPlan(record: RecordDescription): RecordPlan {
    return { kind: 'record', value: this.classPlan(record.values), hint: hintOf(record.values), list: record.list };
  }

  private model(cls: Function, properties: readonly PropertyDescription[]): ObjectPlan {
    const plan: ObjectPlan = { kind: 'object', label: cls.name || 'Model', fields: [] };
    this.models.set(cls, plan);
    const written = new Map<string, string>();
    for (const property of properties) {
      if (property.hiddenInOutput === true) continue;
      const outputName = property.outputName ?? property.name;
      const other = written.get(outputName);
      if (other !== undefined) {
        invalid(`${cls.name}: properties '${other}' and '${property.name}' are both written as '${outputName}'`);
      }
      checkedKey(property.name, cls.name);
      if (hasUntypedItems(property)) {
        // Written whole, its items could carry anything (a password hash): refused rather than shipped by accident.
        invalid(
          `${cls.name}.${property.name} is a list whose items have no declared type, so a response would write them whole: ` +
            `add @Type(() => ItemClass) for models, a rule with { each: true } (@IsString({ each: true })) for scalars, or @Exclude() it`,
        );
      }
      written.set(checkedKey(outputName, cls.name), property.name);
      plan.fields.push({
        read: property.name,
        write: outputName,
        // The class the document shows the value as (a `$ref`), so the filter follows the same type.
        value: property.record === undefined ? this.classPlan(modelClassOf(property)) : this.recordPlan(property.record),
        hint: hintOf(property.designType),
      });
    }
    plan.fields.splice(0, plan.fields.length, ...inObjectKeyOrder(plan.fields));
    return plan;
  }
}

/**
 * Fields in the order a JavaScript object lists its keys: array-index keys (`'0'`, `'12'`)
 * first, ascending, then the others as declared. The filtered value is such an object, so the
 * compiled text must write keys in the same order.
 */
function inObjectKeyOrder(fields: FieldPlan[]): FieldPlan[] {
  const indexes = fields.filter((field) => isArrayIndex(field.write));
  if (indexes.length === 0) return fields;
  indexes.sort((a, b) => Number(a.write) - Number(b.write));
  return [...indexes, ...fields.filter((field) => !isArrayIndex(field.write))];
}

/** Reading `__proto__` gives the prototype and writing it replaces it: no model may use that key. */
function checkedKey(key: string, where: string): string {
  if (key === '__proto__') invalid(`${where}: '__proto__' cannot be a response field`);
  return key;
}

function hintOf(type: unknown): Hint {
  switch (type) {
    case String:
      return 'string';
    case Number:
    case Integer:
      return 'number';
    case Boolean:
      return 'boolean';
    case Date:
      return 'date';
    default:
      return undefined;
  }
}

function invalid(message: string): never {
  throw new TernError('TERN_INVALID_RESPONSE_MODEL', message);
}
