import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import type { ModelClass, ModelCompiler, ModelDescription } from '../../validation/model-compiler';
import { isHidden, modelClassOf, modelSchema, wireName, type ModelView } from './class-to-schema';
import { constructorSchema, describeValue, isDescriptionShape, isModelClass, isPlainObject, type RefFor } from './shapes';
import { shapeName } from './named-shape';
import { TernTypeError } from '../../errors';
import { withoutNull } from '../without-null';
import { isStandardSchema } from '../../validation/standard-schema';
import { StandardSchemas } from './standard-schemas';

/** OpenAPI allows only these characters in a `components.schemas` key. */
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g;

/**
 * Collects the JSON Schemas of model classes for one OpenAPI document. Each class is converted
 * once and named once; everything else refers to it by `$ref`. What a model declares comes from
 * the app's `ModelCompiler`.
 *
 * @example
 * const registry = new SchemaRegistry(app.modelCompiler);
 * registry.schemaFor([User], 'response');  // { type: 'array', items: { $ref: '#/components/schemas/User' } }
 * registry.components();       // { User: { type: 'object', properties: {...}, required: [...] } }
 */
export class SchemaRegistry {
  /** Names by class identity and view: two classes called `User` are two components. */
  private readonly names = new Map<Function, Partial<Record<ModelView, string>>>();
  /** Insertion order is registration order, which keeps the document stable between runs. */
  private readonly schemas = new Map<string, SchemaObject>();
  /** Whether a model (and every model under it) reads the same in requests and responses. */
  private readonly symmetric = new Map<Function, boolean>();
  /** The component each `namedShape` got, per view. */
  private readonly shapeNames = new Map<object, Partial<Record<ModelView, string>>>();
  /** The closed request reading (`Name-Strict`) of each model a `forbidUnknownProperties` route reads. */
  private readonly strictNames = new Map<Function, string>();
  /** The form reading (`Name-Form`) of each request component with a nullable property, by component name. */
  private readonly formNames = new Map<string, string>();
  /** What the compiler said of each model, asked once. */
  private readonly descriptions = new Map<Function, ModelDescription>();

  /** Standard Schema values (zod, valibot, arktype…), described by their own libraries. */
  private readonly standard = new StandardSchemas(this.schemas);

  /**
   * @param options.closedResponses response readings get `additionalProperties: false` (and so
   * never share a component with the open request reading).
   */
  constructor(
    private readonly compiler: ModelCompiler,
    private readonly options: { closedResponses?: boolean } = {},
  ) {}

  /**
   * Registers the class (and, recursively, every class it nests) and returns its `$ref`. A model
   * whose request and response readings differ (`@Exclude()`, `@Expose({ name, toClassOnly })`,
   * properties only a response writes) has two components: `User` as responses write it and
   * `User-Input` as requests send it; any other model has one.
   *
   * @example
   * registry.ref(User, 'response'); // { $ref: '#/components/schemas/User' }
   * registry.ref(User, 'request');  // the same, or User-Input when User reads differently
   */
  ref(model: Function, view: ModelView): ReferenceObject {
    if (!this.isModel(model)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `Cannot describe ${describeValue(model)} as an OpenAPI component: it is not a model class`);
    }
    const named = this.names.get(model) ?? {};
    let name = named[view];
    if (name === undefined) {
      const shared = !this.options.closedResponses && this.readsAlike(model, new Set());
      name = this.freeName(model.name, shared || view === 'response' ? '' : '-Input');
      // Claim the name before converting so a self-referencing or cyclic model meets its own $ref.
      const claimed: Partial<Record<ModelView, string>> = shared ? { request: name, response: name } : { ...named, [view]: name };
      this.names.set(model, claimed);
      this.schemas.set(name, {});
      try {
        const refFor: RefFor = (nested) => this.ref(nested, view);
        this.schemas.set(name, this.closed(modelSchema(this.describe(model), refFor, view), view));
      } catch (error) {
        this.names.set(model, named);
        this.schemas.delete(name);
        throw error;
      }
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /**
   * The request reading of `model` as a route with `forbidUnknownProperties` validates it: its
   * own component, `Name-Strict`, with `additionalProperties: false`, as is every model validated
   * inside it (`@ValidateNested()`). `ref(model, 'request')` stays open, for the routes that strip.
   *
   * @example
   * registry.strictRef(CreateUser); // { $ref: '#/components/schemas/CreateUser-Strict' }
   */
  strictRef(model: Function): ReferenceObject {
    let name = this.strictNames.get(model);
    if (name === undefined) {
      if (!this.isModel(model)) {
        throw new TernTypeError('TERN_INVALID_ARGUMENT', `Cannot describe ${describeValue(model)} as an OpenAPI component: it is not a model class`);
      }
      name = this.freeName(model.name, '-Strict');
      this.strictNames.set(model, name);
      this.schemas.set(name, {});
      const strict: RefFor = (nested) => this.strictRef(nested);
      this.schemas.set(name, modelSchema(this.describe(model), (nested) => this.ref(nested, 'request'), 'request', strict));
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  /**
   * The reading of a request component that a form sends (multipart or urlencoded): a field
   * cannot carry `null` (the text `null` is a string), so where a property admits null the form
   * gets its own component, `Name-Form`, without it. Any other component is its own form reading.
   *
   * @example
   * registry.formRef({ $ref: '#/components/schemas/PhotoMeta' }); // { $ref: '#/components/schemas/PhotoMeta-Form' }
   */
  formRef(ref: ReferenceObject): ReferenceObject {
    const name = decodeURIComponent(ref.$ref.replace(/^#\/components\/schemas\//, ''));
    const schema = this.schemas.get(name);
    if (!schema?.properties) return ref;
    const properties = Object.fromEntries(Object.entries(schema.properties).map(([key, property]) => [key, withoutNull(property)]));
    if (JSON.stringify(properties) === JSON.stringify(schema.properties)) return ref;
    let formName = this.formNames.get(name);
    if (formName === undefined) {
      formName = this.freeName(name, '-Form');
      this.formNames.set(name, formName);
      this.schemas.set(formName, { ...schema, properties });
    }
    return { $ref: `#/components/schemas/${formName}` };
  }

  /** The components that have a form reading (`formRef`): unused ones are dropped from the document. */
  formBases(): string[] {
    return [...this.formNames.keys()];
  }

  /** `schema`, closed when it is a response reading and `closedResponses` is set. */
  private closed(schema: SchemaObject, view: ModelView): SchemaObject {
    return view === 'response' && this.options.closedResponses ? { ...schema, additionalProperties: false } : schema;
  }

  private describe(model: Function): ModelDescription {
    let description = this.descriptions.get(model);
    if (description === undefined) this.descriptions.set(model, (description = this.compiler.describe(model as ModelClass)));
    return description;
  }

  /**
   * True when `model` shows requests and responses the same properties under the same names,
   * and so does every model it nests (a cycle back to a model being checked adds nothing).
   */
  private readsAlike(model: Function, checking: Set<Function>): boolean {
    const known = this.symmetric.get(model);
    if (known !== undefined) return known;
    if (checking.has(model)) return true;
    checking.add(model);
    const alike = this.describe(model).properties.every((property) => {
      const hidden = isHidden(property, 'request');
      if (hidden !== isHidden(property, 'response')) return false;
      if (hidden) return true;
      if (wireName(property, 'request') !== wireName(property, 'response')) return false;
      const nested = modelClassOf(property);
      return nested === undefined || this.readsAlike(nested, checking);
    });
    checking.delete(model);
    // Only an answer reached outside any cycle is final.
    if (checking.size === 0) this.symmetric.set(model, alike);
    return alike;
  }

  /**
   * The schema for a response or request shape (see {@link ResponseShape}): a class gives its
   * `$ref`, `[Class]` an array of it, `{ field: Type }` an inline object whose fields are all
   * required, and `{ description }` gives `undefined` because only the description is used.
   *
   * @example
   * registry.schemaFor({ id: Number, tags: [String] }, 'response');
   * // { type: 'object', properties: { id: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } },
   * //   required: ['id', 'tags'] }
   * registry.schemaFor({ description: 'Deleted' }, 'response'); // undefined
   */
  schemaFor(shape: unknown, view: ModelView): SchemaObject | ReferenceObject | undefined {
    if (shape === undefined || shape === null) return undefined;
    if (isStandardSchema(shape)) return this.standard.schemaFor(shape, view);
    if (isPlainObject(shape) && isDescriptionShape(shape)) {
      if (Object.keys(shape).length > 1) {
        throw new TernTypeError(
          'TERN_INVALID_ARGUMENT',
          `A response shape with a description must have nothing else; got keys ${Object.keys(shape).join(', ')}`,
        );
      }
      return undefined;
    }
    return this.fieldSchema(shape, `${view} shape`, view);
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
  private fieldSchema(value: unknown, where: string, view: ModelView): SchemaObject | ReferenceObject {
    if (isStandardSchema(value)) return this.standard.schemaFor(value, view);
    if (typeof value === 'function') return constructorSchema(value, (model) => this.ref(model, view));
    if (Array.isArray(value)) {
      if (value.length !== 1) {
        throw new TernTypeError('TERN_INVALID_ARGUMENT', `${where}: a list is written [Type] with exactly one type, got ${value.length}`);
      }
      return { type: 'array', items: this.fieldSchema(value[0], `${where}[0]`, view) };
    }
    if (isPlainObject(value)) {
      const name = shapeName(value);
      if (name !== undefined) return this.namedShapeRef(name, value, where, view);
      const properties: Record<string, SchemaObject | ReferenceObject> = {};
      for (const [field, type] of Object.entries(value)) {
        properties[field] = this.fieldSchema(type, `${where}.${field}`, view);
      }
      const required = Object.keys(properties);
      return this.closed(required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties }, view);
    }
    throw new TernTypeError(
      'TERN_INVALID_ARGUMENT',
      `${where}: expected a constructor (String, Number, Boolean, Date, a class), [Type] or { field: Type }, ` +
        `got ${describeValue(value)}`,
    );
  }

  /**
   * A `namedShape`: one component per shape and view, named as given (`Page`, or `Page-Input`
   * when requests read its models differently); another shape under a taken name is an error.
   */
  private namedShapeRef(name: string, shape: Record<string, unknown>, where: string, view: ModelView): ReferenceObject {
    const key = this.shapeNames.get(shape)?.[view];
    if (key !== undefined) return { $ref: `#/components/schemas/${key}` };
    const unnamed = { ...shape };
    const schema = this.fieldSchema(unnamed, where, view);
    const same = [...(Object.values(this.shapeNames.get(shape) ?? {}))].find((other) => JSON.stringify(this.schemas.get(other)) === JSON.stringify(schema));
    const component = same ?? (this.schemas.has(name) ? `${name}-Input` : name);
    if (same === undefined && this.schemas.has(component)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `${where}: namedShape('${name}') names a component another model or shape already has.`);
    }
    this.schemas.set(component, schema as SchemaObject);
    this.shapeNames.set(shape, { ...this.shapeNames.get(shape), [view]: component });
    return { $ref: `#/components/schemas/${component}` };
  }

  /** `User`, then `User_2`, `User_3`... for other classes of the same name, in registration order. */
  private freeName(className: string, suffix: string): string {
    const base = (className.replace(COMPONENT_NAME, '_') || 'Model') + suffix;
    let name = base;
    for (let n = 2; this.schemas.has(name); n++) name = `${base}_${n}`;
    return name;
  }
}
