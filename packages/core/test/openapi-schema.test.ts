import { validate as validateOpenApi } from '@readme/openapi-parser';
// ajv 8 comes with @readme/openapi-parser; it checks the JSON Schema side the OpenAPI validator skips.
import Ajv2020 from 'ajv/dist/2020';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { SchemaObject } from 'openapi3-ts/oas31';
import { SchemaRegistry } from '../src/openapi/schema';
import { defaultModelCompiler } from '../src/validation';
import {
  AdminUser,
  Address,
  Author,
  Bounds,
  Book,
  Dynamic,
  Employee,
  Empty,
  Enums,
  ImplicitNesting,
  Item,
  Level,
  Lists,
  Nesting,
  Optionality,
  Person,
  PublicUser,
  Scalars,
  TreeNode,
  Unknowns,
} from './fixtures/schema-models';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** The component schema of one model, registered in a fresh registry. */
function schemaOf(model: Function): SchemaObject {
  const registry = new SchemaRegistry(defaultModelCompiler);
  const { $ref } = registry.ref(model, 'response');
  return registry.components()[$ref.split('/').pop()!];
}

function propertiesOf(model: Function): Record<string, unknown> {
  return schemaOf(model).properties as Record<string, unknown>;
}

/** What `@IsISO8601()`/`@IsDateString()` and `@IsEmail()` are documented with: the values the validator surely accepts. */
const ISO_DATE_TIME = String.raw`^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$`;
const COMMON_EMAIL = String.raw`^(?=[^@]{1,64}@)[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$`;

describe('scalar validators', () => {
  it('map type validators to JSON Schema types and formats', () => {
    expect(schemaOf(Scalars)).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        price: { type: 'number' },
        count: { type: 'integer' },
        active: { type: 'boolean' },
        born: { type: 'string', format: 'date-time' },
        startsAt: { type: 'string', format: 'date-time', pattern: ISO_DATE_TIME },
        endsAt: { type: 'string', format: 'date-time', pattern: ISO_DATE_TIME },
        email: { type: 'string', format: 'email', maxLength: 254, pattern: COMMON_EMAIL },
        id: { type: 'string', format: 'uuid' },
        homepage: { type: 'string', format: 'uri' },
        settings: { type: 'object' },
      },
      required: Object.keys(scalars()),
    });
  });
});

describe('enums', () => {
  const properties = propertiesOf(Enums);

  it('lists the values of a string enum', () => {
    expect(properties.role).toEqual({ type: 'string', enum: ['admin', 'member'] });
  });

  it('lists numbers, not names, for a numeric enum and types it integer', () => {
    expect(properties.level).toEqual({ type: 'integer', enum: [0, 1, 10] });
  });

  it('types a mixed enum with every type it holds', () => {
    expect(properties.mixed).toEqual({ type: ['string', 'integer'], enum: ['text', 2] });
  });

  it('turns @IsIn into an enum typed by its values', () => {
    expect(properties.order).toEqual({ type: 'string', enum: ['asc', 'desc'] });
    expect(properties.step).toEqual({ type: 'number', enum: [1, 2.5] });
  });

  it('adds null to both type and enum of an optional enum', () => {
    expect(properties.maybeRole).toEqual({ type: ['string', 'null'], enum: ['admin', 'member', null] });
  });
});

describe('bounds, lengths and patterns', () => {
  const properties = propertiesOf(Bounds);

  it('maps Min/Max to minimum/maximum', () => {
    expect(properties.percent).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
  });

  it('maps IsPositive/IsNegative to exclusive bounds at 0', () => {
    expect(properties.amount).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(properties.debt).toEqual({ type: 'number', exclusiveMaximum: 0 });
  });

  it('maps MinLength/MaxLength/Length and keeps the stricter of two bounds', () => {
    expect(properties.nick).toEqual({ type: 'string', minLength: 2, maxLength: 30 });
    expect(properties.code).toEqual({ type: 'string', minLength: 3, maxLength: 8 });
    expect(properties.tight).toEqual({ type: 'string', minLength: 2, maxLength: 5 });
  });

  it('uses the regex source of @Matches as the pattern', () => {
    expect(properties.slug).toEqual({ type: 'string', pattern: '^[a-z]+-\\d+$' });
  });

  it('leaves out a pattern whose flags JSON Schema cannot express', () => {
    expect(properties.caseless).toEqual({ type: 'string' });
  });

  it('gives a non-empty string minLength 1', () => {
    expect(properties.title).toEqual({ type: 'string', minLength: 1 });
  });

  it('narrows IsNumber + IsInt to integer', () => {
    expect(properties.whole).toEqual({ type: 'integer' });
  });

  it('turns Equals into const', () => {
    expect(properties.version).toEqual({ const: 'v1' });
  });
});

describe('lists', () => {
  const registry = new SchemaRegistry(defaultModelCompiler);
  registry.ref(Lists, 'response');
  const components = registry.components();
  const properties = components.Lists.properties as Record<string, unknown>;

  it('refers to the @Type item class from an array of nested models, with array rules on the array', () => {
    expect(properties.items).toEqual({
      type: 'array',
      items: ref('Item'),
      minItems: 1,
      maxItems: 10,
    });
    expect(components.Item).toEqual({ type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] });
  });

  it('keeps ArrayUnique as uniqueItems only where JSON equality matches class-validator', () => {
    expect(properties.tags).toMatchObject({ uniqueItems: true }); // scalars
    // Objects: class-validator compares by identity or a hidden selector; the schema cannot say it.
    expect(properties.bag).toEqual({ type: 'array', items: ref('Item') });
  });

  it('applies each: true validators to the items', () => {
    expect(properties.tags).toEqual({ type: 'array', items: { type: 'string', maxLength: 20 }, uniqueItems: true });
    expect(properties.scores).toEqual({ type: 'array', items: { type: 'integer', minimum: 0 }, minItems: 1 });
    expect(properties.levels).toEqual({ type: 'array', items: { type: 'integer', enum: [0, 1, 10] } });
  });

  it('gives items {} when nothing says what they are, and never a component named Array', () => {
    expect(properties.untyped).toEqual({ type: 'array', items: {} });
    expect(properties.mystery).toEqual({ type: 'array', items: {} });
    expect(Object.keys(components)).toEqual(['Lists', 'Item']);
  });

  it('describes a Set as an array (duplicates are dropped, not refused) and a Map as an object of values', () => {
    expect(properties.unique).toEqual({ type: 'array', items: { type: 'string' } });
    expect(properties.counters).toEqual({ type: 'object', additionalProperties: { type: 'integer' } });
  });
});

describe('nested models', () => {
  const registry = new SchemaRegistry(defaultModelCompiler);
  registry.ref(Nesting, 'response');
  const components = registry.components();

  it('refers to nested classes and makes optional ones nullable with anyOf', () => {
    expect(components.Nesting).toEqual({
      type: 'object',
      properties: {
        shipTo: ref('Address'),
        billTo: { anyOf: [ref('Address'), { type: 'null' }] },
        extras: { type: ['array', 'null'], items: ref('Item') },
      },
      required: ['shipTo'],
    });
  });

  it('refers to a class named only by design:type', () => {
    expect(propertiesOf(ImplicitNesting).homeAddress).toEqual(ref('Address'));
  });

  it('registers every nested class once, in the order met', () => {
    expect(Object.keys(components)).toEqual(['Nesting', 'Address', 'Item']);
  });
});

describe('optional, conditional and defined properties', () => {
  const schema = schemaOf(Optionality);

  it('requires every property except @IsOptional and @ValidateIf ones', () => {
    expect(schema.required).toEqual(['always', 'defined']);
  });

  it('lets @IsOptional properties be null, as class-validator does', () => {
    expect(schema.properties!.maybe).toEqual({ type: ['string', 'null'] });
    expect(schema.properties!.maybeCount).toEqual({ type: ['integer', 'null'] });
    expect(schema.properties!.choice).toEqual({ type: ['string', 'null'], enum: ['a', null] });
    expect(schema.properties!.flag).toEqual({ anyOf: [{ const: 'on' }, { type: 'null' }] });
  });

  it('does not make a @ValidateIf property nullable: its condition decides, not null', () => {
    expect(schema.properties!.sometimes).toEqual({ type: 'string' });
  });

  it('gives {} to a property with no type information', () => {
    expect(schema.properties!.defined).toEqual({});
  });
});

describe('unknown decorators', () => {
  it('ignores them and falls back to the design type', () => {
    expect(schemaOf(Unknowns)).toEqual({
      type: 'object',
      properties: {
        phone: { type: 'string' },
        even: { type: 'number' },
        anything: {},
        whatever: {},
        adminNote: { type: 'string' },
      },
      required: ['phone', 'even', 'anything', 'whatever', 'adminNote'],
    });
  });

  it('survives a @Type thunk that needs the object being converted', () => {
    expect(propertiesOf(Dynamic).payload).toEqual({ type: 'object' });
  });

  it('describes a class without rules as an object with no properties', () => {
    expect(schemaOf(Empty)).toEqual({ type: 'object', properties: {} });
  });
});

describe('inheritance', () => {
  it('gives a subclass its parents fields, parents first', () => {
    expect(schemaOf(Person)).toEqual({
      type: 'object',
      properties: {
        id: { type: 'string', format: 'uuid' },
        createdAt: { type: 'string', format: 'date-time' },
        name: { type: 'string' },
      },
      required: ['id', 'createdAt', 'name'],
    });
  });

  it('lets a subclass override one inherited rule', () => {
    const schema = schemaOf(Employee);
    expect(Object.keys(schema.properties!)).toEqual(['id', 'createdAt', 'name', 'workEmail']);
    // The initialiser `name = ''` is the documented default.
    expect(schema.properties!.name).toEqual({ type: ['string', 'null'], default: '' });
    expect(schema.required).toEqual(['id', 'createdAt', 'workEmail']);
  });
});

describe('cycles and names', () => {
  it('handles a self-referencing model', () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    expect(registry.ref(TreeNode, 'response')).toEqual(ref('TreeNode'));
    expect(registry.components()).toEqual({
      TreeNode: {
        type: 'object',
        properties: {
          label: { type: 'string' },
          children: { type: ['array', 'null'], items: ref('TreeNode') },
          parent: { anyOf: [ref('TreeNode'), { type: 'null' }] },
        },
        required: ['label'],
      },
    });
  });

  it('handles two models that refer to each other', () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    registry.ref(Author, 'response');
    const components = registry.components();
    expect(Object.keys(components)).toEqual(['Author', 'Book']);
    expect(components.Author.properties!.books).toEqual({ type: 'array', items: ref('Book') });
    expect(components.Book.properties!.author).toEqual(ref('Author'));
  });

  it('gives two classes of the same name distinct names, and one class one name', () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    expect(registry.ref(PublicUser, 'response')).toEqual(ref('User'));
    expect(registry.ref(AdminUser, 'response')).toEqual(ref('User_2'));
    expect(registry.ref(PublicUser, 'response')).toEqual(ref('User'));
    const components = registry.components();
    expect(Object.keys(components)).toEqual(['User', 'User_2']);
    expect(Object.keys(components.User_2.properties!)).toEqual(['handle', 'superuser']);
  });

  it('names components deterministically, by registration order', () => {
    const first = new SchemaRegistry(defaultModelCompiler);
    const second = new SchemaRegistry(defaultModelCompiler);
    for (const registry of [first, second]) [AdminUser, PublicUser, Book].forEach((m) => registry.ref(m, 'response'));
    expect(first.components()).toEqual(second.components());
    expect(Object.keys(first.components())).toEqual(['User', 'User_2', 'Book', 'Author']);
  });

  it('makes a component name OpenAPI accepts from any class name', () => {
    const Odd = { ['Odd$Name']: class {} }['Odd$Name'];
    const registry = new SchemaRegistry(defaultModelCompiler);
    expect(registry.ref(Odd, 'response')).toEqual(ref('Odd_Name'));
    expect(registry.ref(class {}, 'response')).toEqual(ref('Model'));
  });

  it('refuses to register something that is not a class', () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    expect(() => registry.ref(String, 'response')).toThrow(TypeError);
    expect(() => registry.ref(() => undefined, 'response')).toThrow(/not a model class/);
  });

  it('returns a copy from components()', () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    registry.ref(Item, 'response');
    registry.components().Item.properties = {};
    expect(registry.components().Item.properties).toEqual({ sku: { type: 'string' } });
  });
});

describe('schemaFor', () => {
  const registry = new SchemaRegistry(defaultModelCompiler);

  it('gives a class its $ref and [Class] an array of it', () => {
    expect(registry.schemaFor(Address, 'response')).toEqual(ref('Address'));
    expect(registry.schemaFor([Item], 'response')).toEqual({ type: 'array', items: ref('Item') });
  });

  it('gives a field shape an inline object with every field required', () => {
    expect(registry.schemaFor({ id: Number, name: String, admin: Boolean, at: Date, home: Address, tags: [String] }, 'response')).toEqual({
      type: 'object',
      properties: {
        id: { type: 'number' },
        name: { type: 'string' },
        admin: { type: 'boolean' },
        at: { type: 'string', format: 'date-time' },
        home: ref('Address'),
        tags: { type: 'array', items: { type: 'string' } },
      },
      required: ['id', 'name', 'admin', 'at', 'home', 'tags'],
    });
  });

  it('nests field shapes and lists of classes', () => {
    expect(registry.schemaFor({ page: { items: [Item], total: Number } }, 'response')).toEqual({
      type: 'object',
      properties: {
        page: {
          type: 'object',
          properties: { items: { type: 'array', items: ref('Item') }, total: { type: 'number' } },
          required: ['items', 'total'],
        },
      },
      required: ['page'],
    });
  });

  it('treats a field called description as a field when its value is a type', () => {
    expect(registry.schemaFor({ description: String }, 'response')).toEqual({
      type: 'object',
      properties: { description: { type: 'string' } },
      required: ['description'],
    });
  });

  it('returns undefined for a description-only shape and for no shape', () => {
    expect(registry.schemaFor({ description: 'Deleted' }, 'response')).toBeUndefined();
    expect(registry.schemaFor(undefined, 'response')).toBeUndefined();
  });

  it('explains a malformed shape instead of guessing', () => {
    expect(() => registry.schemaFor({ id: 'number' }, 'response')).toThrow(/response shape\.id: expected a constructor/);
    expect(() => registry.schemaFor([Item, Address], 'response')).toThrow(/exactly one type/);
    expect(() => registry.schemaFor({ description: 'Created', id: Number }, 'response')).toThrow(/nothing else/);
  });

  it('registers classes met in shapes', () => {
    expect(Object.keys(registry.components())).toEqual(['Address', 'Item']);
  });
});

describe('isModel', () => {
  const registry = new SchemaRegistry(defaultModelCompiler);

  it('accepts classes, with or without class-validator metadata', () => {
    expect(registry.isModel(Scalars)).toBe(true);
    expect(registry.isModel(Empty)).toBe(true);
  });

  it('rejects built-ins, arrow functions and non-functions', () => {
    for (const value of [String, Number, Boolean, Date, Array, Object, Map, Set, Buffer, URL, Blob, () => 1, {}, 'User', null]) {
      expect(registry.isModel(value)).toBe(false);
    }
  });
});

describe('OpenAPI 3.1 validity', () => {
  it('produces components that @readme/openapi-parser accepts in a 3.1 document', async () => {
    const registry = new SchemaRegistry(defaultModelCompiler);
    const models = [Scalars, Enums, Bounds, Lists, Nesting, Optionality, Unknowns, Employee, TreeNode, Author];
    for (const model of models) registry.ref(model, 'response');
    registry.ref(PublicUser, 'response');
    registry.ref(AdminUser, 'response');
    const responses = {
      200: [Employee],
      201: { id: Number, tags: [String], owner: PublicUser },
      204: { description: 'Nothing' },
    };
    const operationResponses = Object.fromEntries(
      Object.entries(responses).map(([status, shape]) => {
        const schema = registry.schemaFor(shape, 'response');
        const body = schema ? { content: { 'application/json': { schema } } } : {};
        return [status, { description: `status ${status}`, ...body }];
      }),
    );
    const document = {
      openapi: '3.1.0',
      info: { title: 'schema test', version: '1.0.0' },
      paths: { '/things': { get: { operationId: 'listThings', responses: operationResponses } } },
      components: { schemas: registry.components() },
    };

    const result = await validateOpenApi(structuredClone(document) as never);

    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(['User', 'User_2', 'TreeNode', 'Book']));
  });
});

describe('JSON Schema 2020-12 validity and agreement with class-validator', () => {
  const registry = new SchemaRegistry(defaultModelCompiler);
  const models = [Scalars, Enums, Bounds, Lists, Nesting, Optionality, Unknowns, Employee, TreeNode, Author];
  for (const model of models) registry.ref(model, 'response');
  const schemas = registry.components();
  // Formats are documentation here; class-validator's format checks differ in detail anyway.
  const ajv = new Ajv2020({ strict: false, validateFormats: false });
  ajv.addSchema({ $id: 'urn:tern:doc', components: { schemas } });

  it('writes every component as a valid JSON Schema 2020-12 schema', () => {
    for (const [name, schema] of Object.entries(schemas)) {
      expect([name, ajv.validateSchema(schema), ajv.errors ?? null]).toEqual([name, true, null]);
    }
  });

  const address = { street: 'Main St' };
  const employee = { id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427', createdAt: '2024-01-02T03:04:05Z', workEmail: 'a@b.co' };
  const optionality = { always: 'y', defined: 0 };
  const cases: [string, Function, Record<string, unknown>, boolean][] = [
    ['an optional field left out', Optionality, optionality, true],
    ['an optional field set to null', Optionality, { ...optionality, maybe: null, maybeCount: null, flag: null }, true],
    ['an optional field of the wrong type', Optionality, { ...optionality, maybeCount: 1.5 }, false],
    ['a required field left out', Optionality, { defined: 0 }, false],
    ['a required field set to null', Optionality, { ...optionality, always: null }, false],
    ['a @ValidateIf field skipped by its condition', Optionality, { ...optionality, sometimes: 'z' }, true],
    ['a numeric enum value', Enums, enums({ level: Level.Max }), true],
    ['a numeric enum value out of range', Enums, enums({ level: 3 }), false],
    ['a mixed enum value', Enums, enums({ mixed: 'text' }), true],
    ['an optional enum set to null', Enums, enums({ maybeRole: null }), true],
    ['bounds met', Bounds, bounds(), true],
    ['a maximum broken', Bounds, bounds({ percent: 101 }), false],
    ['an exclusive minimum broken', Bounds, bounds({ amount: 0 }), false],
    ['a pattern broken', Bounds, bounds({ slug: 'abc' }), false],
    ['a case-insensitive pattern the schema cannot check', Bounds, bounds({ caseless: 'ABC' }), true],
    ['an empty non-empty string', Bounds, bounds({ title: '' }), false],
    ['nested objects', Nesting, { shipTo: address, billTo: null, extras: [{ sku: 'a' }] }, true],
    ['a nested object with a bad field', Nesting, { shipTo: { street: 1 } }, false],
    ['an array item with a bad field', Nesting, { shipTo: address, extras: [{ sku: 2 }] }, false],
    ['an inherited field of the wrong type', Employee, { ...employee, id: 42 }, false],
    ['an overridden field made optional', Employee, employee, true],
    ['a tree', TreeNode, { label: 'root', children: [{ label: 'leaf', children: null }] }, true],
    ['a tree with a bad leaf', TreeNode, { label: 'root', children: [{ label: 7 }] }, false],
    ['typed scalars', Scalars, scalars(), true],
    ['an integer with a fraction', Scalars, scalars({ count: 1.5 }), false],
    ['lists within their bounds', Lists, lists(), true],
    ['a list below its minimum size', Lists, lists({ items: [] }), false],
    ['equal objects in a list of unique objects', Lists, lists({ bag: [{ sku: 'b' }, { sku: 'b' }] }), true],
    ['repeated strings that must be unique', Lists, lists({ tags: ['t', 't'] }), false],
    ['a list item too long', Lists, lists({ tags: ['x'.repeat(21)] }), false],
    ['a list item below its minimum', Lists, lists({ scores: [-1] }), false],
    ['a Set with duplicates', Lists, lists({ unique: ['a', 'a'] }), true],
    ['a Map with a bad value', Lists, lists({ counters: { a: 1.5 } }), false],
    ['a cycle of two models', Author, { name: 'A', books: [{ title: 'T', author: { name: 'A', books: [] } }] }, true],
  ];

  it.each(cases)('agrees on %s', (_label, model, payload, valid) => {
    const errors = validateSync(plainToInstance(model as new () => object, payload) as object);
    const check = ajv.getSchema(`urn:tern:doc${registry.ref(model, 'response').$ref}`)!;
    expect({ classValidator: errors.length === 0, schema: check(payload) }).toEqual({ classValidator: valid, schema: valid });
  });
});

function enums(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { role: 'admin', level: Level.High, mixed: 2, order: 'asc', step: 2.5, ...overrides };
}

function bounds(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    percent: 50,
    amount: 0.5,
    debt: -1,
    nick: 'ab',
    code: 'abc',
    tight: 'abcd',
    slug: 'ab-12',
    caseless: 'abc',
    title: 't',
    whole: 3,
    version: 'v1',
    ...overrides,
  };
}

function scalars(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'n',
    price: 9.99,
    count: 2,
    active: true,
    born: '2000-01-01T00:00:00Z',
    startsAt: '2024-01-01T00:00:00Z',
    endsAt: '2024-01-02T00:00:00Z', // the validator takes '2024-01-02' too; the document promises only date-times
    email: 'a@b.co',
    id: '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
    homepage: 'https://example.com',
    settings: {},
    ...overrides,
  };
}

function lists(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    items: [{ sku: 'a' }],
    bag: [],
    tags: ['t'],
    scores: [0, 3],
    levels: [0, 10],
    untyped: [1, 'x'],
    mystery: [],
    unique: ['a'],
    counters: { a: 1 },
    ...overrides,
  };
}
