import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { defaultModelCompiler } from '../../validation/class-validator/compiler';
import type { ModelClass, ModelCompiler } from '../../validation/model-compiler';
import { modelSchema } from './class-to-schema';
import { constructorSchema, isDescriptionShape, isModelClass, isPlainObject, type RefFor } from './shapes';
import { TernTypeError } from '../../errors';

/** OpenAPI allows only these characters in a `components.schemas` key. */
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g;

/**
 * Collects the JSON Schemas of model classes for one OpenAPI document. Each class is converted
 * once and named once; everything else refers to it by `$ref`. What a model declares comes from
 * the `ModelCompiler` given (the default one reads class-validator).
 *
 * @example
 * const registry = new SchemaRegistry(); // or new SchemaRegistry(modelCompiler)
 * registry.schemaFor([User]);  // { type: 'array', items: { $ref: '#/components/schemas/User' } }
 * registry.components();       // { User: { type: 'object', properties: {...}, required: [...] } }
 */
export class SchemaRegistry {
  /** Names by class identity: two classes called `User` are two components. */
  private readonly names = new Map<Function, string>();
  /** Insertion order is registration order, which keeps the document stable between runs. */
  private readonly schemas = new Map<string, SchemaObject>();
  private readonly refFor: RefFor = (model) => this.ref(model);

  constructor(private readonly compiler: ModelCompiler = defaultModelCompiler) {}

  /**
   * Registers the class (and, recursively, every class it nests) and returns its `$ref`.
   *
   * @example
   * registry.ref(User); // { $ref: '#/components/schemas/User' }
   */
  ref(model: Function): ReferenceObject {
    if (!this.isModel(model)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `Cannot describe ${describeValue(model)} as an OpenAPI component: it is not a model class`);
    }
    let name = this.names.get(model);
    if (name === undefined) {
      name = this.freeName(model.name);
      // Claim the name before converting so a self-referencing or cyclic model meets its own $ref.
      this.names.set(model, name);
      this.schemas.set(name, {});
      try {
        this.schemas.set(name, modelSchema(this.compiler.describe(model as ModelClass), this.refFor));
      } catch (error) {
        this.names.delete(model);
        this.schemas.delete(name);
        throw error;
      }
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /**
   * The schema for a response or request shape (see {@link ResponseShape}): a class gives its
   * `$ref`, `[Class]` an array of it, `{ field: Type }` an inline object whose fields are all
   * required, and `{ description }` gives `undefined` because only the description is used.
   *
   * @example
   * registry.schemaFor({ id: Number, tags: [String] });
   * // { type: 'object', properties: { id: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
   * //   required: ['id', 'tags'] }
   * registry.schemaFor({ description: 'Deleted' }); // undefined
   */
  schemaFor(shape: unknown): SchemaObject | ReferenceObject | undefined {
    if (shape === undefined || shape === null) return undefined;
    if (isPlainObject(shape) && isDescriptionShape(shape)) {
      if (Object.keys(shape).length > 1) {
        throw new TernTypeError(
          'TERN_INVALID_ARGUMENT',
          `A response shape with a description must have nothing else; got keys ${Object.keys(shape).join(', ')}`,
        );
      }
      return undefined;
    }
    return this.fieldSchema(shape, 'response shape');
  }

  /**
   * True for a model class: any class written in JavaScript, with or without class-validator
   * metadata. Built-ins such as `String`, `Number`, `Date`, `Array` and `Object` are not models.
   *
   * @example
   * registry.isModel(User);   // true
   * registry.isModel(String); // false
   */
  isModel(value: unknown): value is Function {
    return isModelClass(value);
  }

  /**
   * Every registered schema, for `components.schemas`, in registration order. The result is a
   * copy: a document builder may change it without changing the registry.
   *
   * @example
   * const document = { openapi: '3.1.0', info, paths, components: { schemas: registry.components() } };
   */
  components(): Record<string, SchemaObject> {
    return structuredClone(Object.fromEntries(this.schemas));
  }

  /** One field of a shape, or the whole shape; `where` names it in error messages. */
  private fieldSchema(value: unknown, where: string): SchemaObject | ReferenceObject {
    if (typeof value === 'function') return constructorSchema(value, this.refFor);
    if (Array.isArray(value)) {
      if (value.length !== 1) {
        throw new TernTypeError('TERN_INVALID_ARGUMENT', `${where}: a list is written [Type] with exactly one type, got ${value.length}`);
      }
      return { type: 'array', items: this.fieldSchema(value[0], `${where}[0]`) };
    }
    if (isPlainObject(value)) {
      const properties: Record<string, SchemaObject | ReferenceObject> = {};
      for (const [field, type] of Object.entries(value)) {
        properties[field] = this.fieldSchema(type, `${where}.${field}`);
      }
      const required = Object.keys(properties);
      return required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
    }
    throw new TernTypeError(
      'TERN_INVALID_ARGUMENT',
      `${where}: expected a constructor (String, Number, Boolean, Date, a class), [Type] or { field: Type }, ` +
        `got ${describeValue(value)}`,
    );
  }

  /** `User`, then `User_2`, `User_3`... for other classes of the same name, in registration order. */
  private freeName(className: string): string {
    const base = className.replace(COMPONENT_NAME, '_') || 'Model';
    let name = base;
    for (let n = 2; this.schemas.has(name); n++) name = `${base}_${n}`;
    return name;
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'function') return value.name ? `function ${value.name}` : 'an anonymous function';
  if (typeof value === 'string') return JSON.stringify(value);
  return value === null ? 'null' : typeof value;
}
