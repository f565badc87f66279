/**
 * A response schema (API.md "Route objects") turned into the tree both the filter and the
 * serializers walk. Only two kinds of value exist: `any` (written as `JSON.stringify` would)
 * and `object` (only the listed fields). A list is not a kind of its own: an array met where an
 * object is declared is filtered item by item, so `[User]` and `User` filter alike and a handler
 * that returns one user where a list was declared (or the reverse) still leaks nothing.
 */
import { TernError } from '../errors/tern-error';
import { isDescriptionShape, isModelClass, isPlainObject } from '../openapi/schema/shapes';
import { defaultModelCompiler } from '../validation/class-validator/compiler';
import type { ModelClass, ModelCompiler } from '../validation/model-compiler';
import { declaredModel, type DeclaredModel } from './model-metadata';

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

export type ValuePlan = AnyPlan | ObjectPlan;

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

/**
 * The plan of one response schema, or `undefined` when it filters nothing (`{ description }`,
 * `String`, `[Number]`, a class that is not a model).
 *
 * @example
 * planResponse([UserDto]); // { kind: 'object', label: 'UserDto', fields: [...] }
 * planResponse({ description: 'Deleted' }); // undefined
 * planResponse(ZodBackedUser, zodCompiler); // the properties zodCompiler.describe() lists
 */
export function planResponse(schema: unknown, compiler: ModelCompiler = defaultModelCompiler): ObjectPlan | undefined {
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
    return invalid(`${where}: expected a class, a constructor, [Type] or { field: Type }, got ${describe(type)}`);
  }

  /**
   * A model's properties come from its class-transformer and class-validator decorators (with
   * `@Expose`/`@Exclude` applied); a class with none of them is asked of the app's compiler, so a
   * model another validation library describes is filtered by what its `describe()` lists rather
   * than sent whole. A class neither knows is a plain TypeScript type, not a model: nothing to
   * filter by, so its values are written whole rather than as `{}`.
   */
  private classPlan(cls: unknown): ValuePlan {
    if (!isModelClass(cls)) return ANY;
    const known = this.models.get(cls);
    if (known) return known;
    let declared = declaredModel(cls);
    if (declared.properties.length === 0 && !declared.exposedOnly) declared = describedModel(this.compiler, cls as ModelClass);
    if (declared.properties.length === 0 && !declared.exposedOnly) return ANY;
    return this.model(cls, declared);
  }

  private model(cls: Function, { properties, exposedOnly }: DeclaredModel): ObjectPlan {
    const plan: ObjectPlan = { kind: 'object', label: cls.name || 'Model', fields: [] };
    this.models.set(cls, plan);
    const written = new Map<string, string>();
    for (const property of properties) {
      if (property.hidden || (exposedOnly && !property.exposed)) continue;
      const other = written.get(property.outputName);
      if (other !== undefined) {
        invalid(`${cls.name}: properties '${other}' and '${property.name}' are both written as '${property.outputName}'`);
      }
      checkedKey(property.name, cls.name);
      written.set(checkedKey(property.outputName, cls.name), property.name);
      const nested = property.nestedClass;
      plan.fields.push({
        read: property.name,
        write: property.outputName,
        value: this.classPlan(nested),
        hint: hintOf(property.designType),
      });
    }
    plan.fields.splice(0, plan.fields.length, ...inObjectKeyOrder(plan.fields));
    return plan;
  }
}

/**
 * What a compiler's `describe()` says of a model, as the filter reads it: every described property
 * kept under its own name, nested values filtered as their declared class (or, under a nested
 * rule, as their design type).
 */
function describedModel(compiler: ModelCompiler, model: ModelClass): DeclaredModel {
  const properties = compiler.describe(model).properties.map((property) => ({
    name: property.name,
    outputName: property.name,
    hidden: false,
    exposed: false,
    nestedClass: property.declaredType ?? (property.rules.some((rule) => rule.nested) ? property.designType : undefined),
    designType: property.designType,
  }));
  return { properties, exposedOnly: false };
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

function isArrayIndex(key: string): boolean {
  const n = Number(key);
  return String(n >>> 0) === key && n !== 2 ** 32 - 1;
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

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}
