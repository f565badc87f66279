/**
 * Responses by contract: a compiled response serializer writes exactly
 * `JSON.stringify(filter(value))`, where `filter` keeps only what the declared model declares.
 *
 * The property tests compare both compiled engines (generated code, closures) and the exposed
 * `filter` with a reference written here, independently: the declarations of each model are
 * spelled out by hand below (not read from decorators), and `referenceFilter` is plain recursive
 * code over them.
 */
import fc from 'fast-check';
import { types } from 'node:util';
import { Allow, IsArray, IsBoolean, IsDate, IsEmail, IsInt, IsNumber, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import { TernError } from '../src/errors/tern-error';
import { compileResponseSerializer, compileResponseSerializers, type ResponseSerializer } from '../src/serialization/compile';
import { defaultModelCompiler } from '../src/validation';

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

class Address {
  @IsString() city: string;
  @IsOptional() @IsString() zip?: string;
}

class Tag {
  @IsString() label: string;
  @Exclude() @IsString() secret: string;
}

class Base {
  @IsInt() id: number;
}

class User extends Base {
  @IsString() name: string;
  @Expose({ name: 'mail' }) @IsEmail() email: string;
  @Exclude() @IsString() passwordHash: string;
  @IsDate() createdAt: Date;
  @ValidateNested() @Type(() => Address) address: Address;
  @ValidateNested({ each: true }) @Type(() => Tag) tags: Tag[];
  @IsArray() @IsString({ each: true }) labels: string[];
  @IsOptional() @ValidateNested() @Type(() => User) manager?: User;
  @IsBoolean() active: boolean;
  @IsNumber() score: number;
  @Allow() meta: unknown;
  @Expose() nickname: string;
  @Expose({ name: '7' }) @IsString() seven: string;
  @Expose({ groups: ['admin'] }) @IsString() adminNote: string;
  @Exclude({ toClassOnly: true }) @IsString() shownOnOutput: string;
  @Type(() => Number) count: number;
  @Transform(({ value }) => value) raw: unknown;
}

/** Class-level @Exclude(): only @Expose()d properties are written. */
@Exclude()
class Strict {
  @Expose() @IsString() shown: string;
  @IsString() hidden: string;
}

class Account {
  @IsString() first: string;
  @IsString() last: string;
  @Expose()
  get full(): string {
    return `${this.first} ${this.last}`;
  }
}

const SHAPE = {
  user: User,
  strict: Strict,
  list: [Tag],
  count: Number,
  when: Date,
  nested: { a: String, b: [Address] },
};

// ---------------------------------------------------------------------------------------------
// The reference: declarations by hand, filter as plain recursion
// ---------------------------------------------------------------------------------------------

/** `scalar`: a field whose model says String, Number or Boolean (never written as an object). */
type RefType = 'any' | 'scalar' | RefObject;
interface RefObject {
  name: string;
  /** The model class, whose instances a handler may return too. */
  cls?: Function;
  /** [property read, key written, type of the value], in declaration order. */
  fields: () => Array<[string, string, RefType]>;
}

const R_ADDRESS: RefObject = { name: 'Address', cls: Address, fields: () => [['city', 'city', 'scalar'], ['zip', 'zip', 'scalar']] };
const R_TAG: RefObject = { name: 'Tag', cls: Tag, fields: () => [['label', 'label', 'scalar']] };
const R_USER: RefObject = {
  name: 'User',
  cls: User,
  fields: () => [
    ['id', 'id', 'scalar'],
    ['name', 'name', 'scalar'],
    ['email', 'mail', 'scalar'],
    ['createdAt', 'createdAt', 'any'],
    ['address', 'address', R_ADDRESS],
    ['tags', 'tags', R_TAG],
    ['labels', 'labels', 'any'],
    ['manager', 'manager', R_USER],
    ['active', 'active', 'scalar'],
    ['score', 'score', 'scalar'],
    ['meta', 'meta', 'any'],
    ['seven', '7', 'scalar'],
    ['shownOnOutput', 'shownOnOutput', 'scalar'],
    // properties only class-transformer knows come after the validated ones
    ['nickname', 'nickname', 'scalar'],
    ['count', 'count', 'scalar'],
    ['raw', 'raw', 'any'],
  ],
};
const R_STRICT: RefObject = { name: 'Strict', cls: Strict, fields: () => [['shown', 'shown', 'scalar']] };
const R_ACCOUNT: RefObject = {
  name: 'Account',
  cls: Account,
  fields: () => [['first', 'first', 'scalar'], ['last', 'last', 'scalar'], ['full', 'full', 'scalar']],
};
const R_SHAPE: RefObject = {
  name: 'shape',
  fields: () => [
    ['user', 'user', R_USER],
    ['strict', 'strict', R_STRICT],
    ['list', 'list', R_TAG],
    ['count', 'count', 'scalar'],
    ['when', 'when', 'any'],
    ['nested', 'nested', R_NESTED],
  ],
};
const R_NESTED: RefObject = { name: 'nested', fields: () => [['a', 'a', 'scalar'], ['b', 'b', R_ADDRESS]] };

/**
 * What the contract says is sent: where an object is declared, `toJSON` is applied first (once,
 * with the key), an array is filtered item by item, `null` stays, any other primitive (boxed or
 * not) is left out (fail closed: no model is a string), and an object keeps only its declared
 * fields; everything else is left for JSON.stringify.
 */
function referenceFilter(type: RefType, value: unknown, key: string): unknown {
  if (type === 'any') return value;
  if (type === 'scalar') return referenceScalar(value, key);
  let current = value;
  if (current !== null && (typeof current === 'object' || typeof current === 'function')) {
    const toJSON = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') {
      current = toJSON.call(current, key);
      if (typeof current === 'function') return undefined;
    }
  }
  if (current === null) return null;
  if (typeof current === 'function') return current;
  if (typeof current !== 'object') return undefined;
  if (Array.isArray(current)) {
    const out: unknown[] = [];
    for (let i = 0; i < current.length; i++) out.push(referenceFilter(type, current[i], String(i)));
    return out;
  }
  if (types.isNumberObject(current) || types.isStringObject(current) || types.isBooleanObject(current)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [read, write, fieldType] of type.fields()) {
    const filtered = referenceFilter(fieldType, (current as Record<string, unknown>)[read], write);
    if (filtered !== undefined) out[write] = filtered;
  }
  return out;
}

/** A scalar field: an object is written as what `toJSON` or unboxing makes of it, if that is no object; else left out. */
function referenceScalar(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  const current: unknown = typeof toJSON === 'function' ? toJSON.call(value, key) : value;
  if (current === null || typeof current !== 'object') return current;
  if (types.isNumberObject(current)) return Number(current);
  if (types.isStringObject(current)) return String(current);
  if (types.isBooleanObject(current)) return current.valueOf();
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// Arbitraries
// ---------------------------------------------------------------------------------------------

const awkwardText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  // code units, so lone surrogates appear
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 12 }),
  fc.constantFrom('"', '\\', '\u2028', '\u2029', '\u0000', '\u001f', '\ud800', '\udfff', '\ud83d\ude00', 'plain', ''),
  // long strings take the regular-expression and the over-5000 paths
  fc.tuple(fc.constantFrom('a', '"', '\ud800', 'é'), fc.constantFrom(41, 42, 60, 4999, 5000, 5001)).map(([c, n]) => 'x'.repeat(n) + c),
);

/** A Date whose JSON is its own idea: JSON.stringify calls toISOString, so must the serializer. */
class LocalDate extends Date {
  override toISOString(): string {
    return `local:${this.getTime()}`;
  }
}

const date = fc.oneof(
  fc.date({ noInvalidDate: true }),
  fc.constant(new Date(Number.NaN)),
  fc.integer({ min: -8.64e15, max: 8.64e15 }).map((t) => new Date(t)),
  fc.constantFrom(new Date(-62167219200000), new Date(253402300799999), new Date(253402300800000), new Date(-1)),
);

const scalar = fc.oneof(
  awkwardText,
  fc.double(),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0, 1e21, 5e-324),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  date,
  fc.constantFrom<unknown>(new Number(3), new String('boxed "s"'), new Boolean(false), Object(Symbol('s')), Symbol('s'), () => 1),
  // look boxed to instanceof, are ordinary objects to JSON.stringify
  fc.constantFrom<unknown>(Object.create(Number.prototype), Object.create(String.prototype), Object.create(Date.prototype)),
  fc.integer().map((t) => new LocalDate(t)),
);

/** A `toJSON` whose answer depends on the key, and may be anything at all. */
const withToJSON = (inner: fc.Arbitrary<unknown>) =>
  fc.tuple(inner, fc.constantFrom('value', 'key', 'nothing', 'function', 'array')).map(([result, mode]) => ({
    extra: 'never written',
    toJSON(key: string): unknown {
      if (mode === 'key') return `key:${key}`;
      if (mode === 'nothing') return undefined;
      if (mode === 'function') return () => 1;
      if (mode === 'array') return [result, key];
      return result;
    },
  }));

/** Any value an undeclared ("any") field may hold. */
const { anyValue } = fc.letrec<{ anyValue: unknown }>((tie) => ({
  anyValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('anyValue'), { maxLength: 4 }),
    fc.sparseArray(tie('anyValue'), { maxLength: 4 }),
    fc.dictionary(awkwardText, tie('anyValue'), { maxKeys: 3 }),
    withToJSON(tie('anyValue')),
  ),
}));

class Prototyped {
  constructor(own: Record<string, unknown>) {
    Object.assign(this, own);
  }
}
// A prototype property the model declares: a filter reads it like any property.
(Prototyped.prototype as unknown as Record<string, unknown>).city = 'from the prototype';

/**
 * The same fields presented as a plain object, an instance of the model (own properties shadow
 * its getters), an instance of another class, getters, a null-prototype object.
 */
function presentations(fields: Record<string, unknown>, cls: Function | undefined): fc.Arbitrary<unknown> {
  return fc.constantFrom<() => unknown>(
    () => fields,
    () => {
      const instance = Object.create((cls ?? Object).prototype);
      for (const [key, value] of Object.entries(fields)) {
        Object.defineProperty(instance, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return instance;
    },
    () => new Prototyped(fields),
    () => {
      const withGetters = {};
      for (const [key, value] of Object.entries(fields)) {
        Object.defineProperty(withGetters, key, { get: () => value, enumerable: key.length % 2 === 0 });
      }
      return withGetters;
    },
    () => Object.assign(Object.create(null), fields),
  ).map((make) => make());
}

/** Values for a declared object: usually of its shape (with extra fields), sometimes not at all. */
function valueOf(type: RefType, depth: number): fc.Arbitrary<unknown> {
  if (type === 'any' || type === 'scalar') return anyValue;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [read, , fieldType] of type.fields()) {
    record[read] = depth <= 0 && typeof fieldType === 'object' ? scalar : valueOf(fieldType, depth - 1);
  }
  const fields = fc
    .tuple(fc.record(record, { requiredKeys: [] }), fc.dictionary(awkwardText, anyValue, { maxKeys: 2 }))
    .map(([declared, extra]) => ({ ...extra, ...declared, passwordHash: 'never sent', secret: 's3cret' }));
  const object = fields.chain((declared) => presentations(declared, type.cls));
  return fc.oneof(
    { weight: 6, arbitrary: object },
    { weight: 2, arbitrary: fc.array(object, { maxLength: 3 }) },
    { weight: 1, arbitrary: fc.sparseArray(object, { maxLength: 4 }) },
    { weight: 1, arbitrary: withToJSON(object) },
    { weight: 1, arbitrary: anyValue },
  );
}

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

type Outcome = { text: string | undefined } | { threw: string };

function outcome(run: () => string | undefined): Outcome {
  try {
    return { text: run() };
  } catch (error) {
    return { threw: (error as Error).constructor.name };
  }
}

const engines: Array<[string, boolean]> = [
  ['generated code', true],
  ['closures', false],
];

const cases: Array<[string, unknown, RefObject, number]> = [
  ['User', User, R_USER, 3],
  ['[User]', [User], R_USER, 2],
  ['Strict', Strict, R_STRICT, 1],
  ['Account (getter)', Account, R_ACCOUNT, 1],
  ['a { field: Type } shape', SHAPE, R_SHAPE, 2],
];

describe.each(engines)('compiled serializer (%s)', (_engine, codegen) => {
  it.each(cases)('%s: serialize(v) === JSON.stringify(filter(v)) for the reference filter', (_name, schema, ref, depth) => {
    const serializer = compileResponseSerializer(schema as Function, { codegen, modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    expect(serializer.generated).toBe(codegen);
    fc.assert(
      fc.property(valueOf(ref, depth), (value) => {
        const expected = outcome(() => JSON.stringify(referenceFilter(ref, value, '')));
        expect(outcome(() => serializer.serialize(value))).toEqual(expected);
        expect(outcome(() => JSON.stringify(serializer.filter(value)))).toEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('throws where JSON.stringify throws (a bigint), as JSON.stringify does', () => {
    const serializer = compileResponseSerializer(User, { codegen, modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    expect(() => serializer.serialize({ id: 1n })).toThrow(TypeError);
    expect(() => JSON.stringify(serializer.filter({ id: 1n }))).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------------------------------------
// What a user sees
// ---------------------------------------------------------------------------------------------

class MeDto {
  @IsInt() id: number;
  @IsEmail() email: string;
}

class UserEntity {
  constructor(
    public id: number,
    public email: string,
    public passwordHash: string,
  ) {}
}

describe('responses by contract', () => {
  it('sends only the declared fields of an entity returned for a declared model', () => {
    const me = compileResponseSerializer(MeDto, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const entity = new UserEntity(1, 'ada@example.com', '$2b$10$hash');
    expect(me.serialize(entity)).toBe('{"id":1,"email":"ada@example.com"}');
    expect(me.filter(entity)).toEqual({ id: 1, email: 'ada@example.com' });
  });

  it('filters every item of a list, and a list where one object was declared', () => {
    const list = compileResponseSerializer([MeDto], { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const one = compileResponseSerializer(MeDto, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const entities = [new UserEntity(1, 'a@x.io', 'h1'), new UserEntity(2, 'b@x.io', 'h2')];
    const expected = '[{"id":1,"email":"a@x.io"},{"id":2,"email":"b@x.io"}]';
    expect(list.serialize(entities)).toBe(expected);
    expect(one.serialize(entities)).toBe(expected);
  });

  it('honours @Exclude, @Expose({ name }), nested @Type models and Dates', () => {
    const serializer = compileResponseSerializer(User, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const text = serializer.serialize({
      id: 1,
      name: 'Ada',
      email: 'ada@example.com',
      passwordHash: 'x',
      createdAt: new Date(Date.UTC(2024, 0, 2)),
      address: { city: 'Paris', street: 'not declared' },
      tags: [{ label: 'a', secret: 's' }],
      adminNote: 'only for the admin group',
      seven: 'S',
    });
    expect(JSON.parse(text as string)).toEqual({
      7: 'S',
      id: 1,
      name: 'Ada',
      mail: 'ada@example.com',
      createdAt: '2024-01-02T00:00:00.000Z',
      address: { city: 'Paris' },
      tags: [{ label: 'a' }],
    });
  });

  it('filters a property typed as a model by that model, with or without @Type/@ValidateNested, as the document shows it', () => {
    class Profile {
      @ValidateNested() address: Address;
      @IsObject() settings: Address;
      @IsString() label: Address; // a validator that fixes another type wins: documented and written as a string
    }
    const serializer = compileResponseSerializer(Profile, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const address = { city: 'Oslo', street: 'not declared' };
    expect(serializer.serialize({ address, settings: address, label: 'home' })).toBe(
      '{"address":{"city":"Oslo"},"settings":{"city":"Oslo"},"label":"home"}',
    );
  });

  it('writes a property a subclass re-declares at its ancestor\'s place, as the OpenAPI schema lists it', () => {
    class Named {
      @IsString() name: string;
      @IsString() note: string;
    }
    class Renamed extends Named {
      @IsString() declare name: string;
    }
    const entity = Object.assign(new Renamed(), { name: 'Ada', note: 'x' });
    expect((compileResponseSerializer(Renamed, { modelCompiler: defaultModelCompiler }) as ResponseSerializer).serialize(entity)).toBe(JSON.stringify(entity));
    expect(defaultModelCompiler.describe(Renamed).properties.map((p) => p.name)).toEqual(['name', 'note']);
  });

  it('leaves out a primitive met where a model is declared (fail closed), and keeps null', () => {
    for (const codegen of [true, false]) {
      const serializer = compileResponseSerializer({ user: User, total: Number }, { codegen, modelCompiler: defaultModelCompiler }) as ResponseSerializer;
      const cases: Array<[unknown, string | undefined]> = [
        [null, 'null'],
        [3, undefined],
        ['text', undefined],
        [true, undefined],
        [new String('boxed'), undefined],
        [{ user: 'token=secret', total: '7' }, '{"total":"7"}'],
        [{ user: new String('secret'), total: 7 }, '{"total":7}'],
        [{ user: 12 }, '{}'],
        [{ user: null }, '{"user":null}'],
        [{ user: { toJSON: () => 'secret' } }, '{}'],
      ];
      for (const [value, written] of cases) {
        expect(serializer.serialize(value)).toBe(written);
        expect(JSON.stringify(serializer.filter(value))).toBe(written);
      }
      expect(serializer.serialize(undefined)).toBeUndefined();
    }
  });

  it('compiles nothing for schemas that filter nothing', () => {
    expect(compileResponseSerializer({ description: 'Deleted' }, { modelCompiler: defaultModelCompiler })).toBeUndefined();
    expect(compileResponseSerializer(String, { modelCompiler: defaultModelCompiler })).toBeUndefined();
    expect(compileResponseSerializer([Number], { modelCompiler: defaultModelCompiler })).toBeUndefined();
    expect(compileResponseSerializer(undefined, { modelCompiler: defaultModelCompiler })).toBeUndefined();
    const all = compileResponseSerializers({ 200: MeDto, 204: { description: 'No content' }, 404: { description: 'No user' } }, { modelCompiler: defaultModelCompiler });
    expect(all.size).toBe(1);
    expect(all.forStatus(200)).toBeDefined();
    expect(all.forStatus(404)).toBeUndefined();
  });

  it('finds a status by its code, then its range, then default', () => {
    class ErrorDto {
      @IsString() message: string;
    }
    const serializers = compileResponseSerializers(
      { 201: MeDto, '4XX': ErrorDto, default: Tag, 404: { description: 'No user' }, 200: [Tag] },
      { modelCompiler: defaultModelCompiler },
    );
    const value = { id: 1, email: 'e', message: 'm', label: 'l', secret: 's' };
    expect(serializers.forStatus(201)?.serialize(value)).toBe('{"id":1,"email":"e"}');
    expect(serializers.forStatus(400)?.serialize(value)).toBe('{"message":"m"}');
    // 404 is declared without a body schema: that wins over 4XX, so nothing is filtered
    expect(serializers.forStatus(404)).toBeUndefined();
    expect(serializers.forStatus(500)?.serialize(value)).toBe('{"label":"l"}');
    expect(serializers.forStatus(200)?.serialize([value])).toBe('[{"label":"l"}]');
    expect(serializers.size).toBe(4);
  });

  it('refuses malformed shapes and two properties written under one name at compile time', () => {
    class Clash {
      @IsString() a: string;
      @Expose({ name: 'a' }) @IsString() b: string;
    }
    for (const schema of [[MeDto, MeDto], { field: 'text' }, { field: [] }, Clash]) {
      let thrown: unknown;
      try {
        compileResponseSerializer(schema as unknown as Function, { modelCompiler: defaultModelCompiler });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(TernError);
      expect((thrown as TernError).code).toBe('TERN_INVALID_RESPONSE_MODEL');
    }
  });
});

describe('lists of strings written without JSON.stringify', () => {
  const lists: unknown[][] = [
    [],
    ['a', 'b'],
    ['say "hi"', 'back\\slash', 'line\nbreak', '\u2028', '\ud800', '\ud83d\ude00'],
    ['a', undefined],
    // eslint-disable-next-line no-sparse-arrays
    [, 'a'],
    ['a', 1],
    ['a', null],
    Array.from({ length: 20 }, (_, i) => `tag-${i}`),
    [new String('boxed')],
  ];

  it.each(lists.map((list) => [JSON.stringify(list), list]))('writes %s as JSON.stringify does', (_name, list) => {
    for (const codegen of [true, false]) {
      const serializer = compileResponseSerializer({ tags: Array }, { codegen, modelCompiler: defaultModelCompiler }) as ResponseSerializer;
      expect(serializer.serialize({ tags: list })).toBe(JSON.stringify({ tags: list }));
    }
  });
});

describe('the generated writer writes bytes into one scratch buffer', () => {
  class Leaf {
    @IsString() name: string;
  }

  it('grows the buffer for a large body and keeps every byte written before the growth', () => {
    const serializer = compileResponseSerializer([Leaf], { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const leaves = Array.from({ length: 5000 }, (_, i) => ({ name: `leaf ${i} ${'é'.repeat(i % 50)}` }));
    expect(serializer.serialize(leaves)).toBe(JSON.stringify(leaves));
    expect(serializer.serialize([{ name: 'small' }])).toBe('[{"name":"small"}]');
  });

  it('lets a getter or toJSON serialize another body while one is being written', () => {
    const inner = compileResponseSerializer(Leaf, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    class Outer {
      @IsString() before = 'b'.repeat(100);
      @IsString() get nested(): string {
        return inner.serialize({ name: 'inner', extra: 1 }) as string;
      }
      @ValidateNested() @Type(() => Leaf) leaf = { toJSON: () => JSON.parse(inner.serialize({ name: 'via toJSON' }) as string) };
      @IsString() after = 'a';
    }
    const outer = compileResponseSerializer(Outer, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    const value = new Outer();
    expect(outer.serialize(value)).toBe(
      JSON.stringify({ before: value.before, nested: '{"name":"inner"}', leaf: { name: 'via toJSON' }, after: 'a' }),
    );
  });

  it('writes the next body correctly after one threw halfway (a bigint)', () => {
    class Counter {
      @IsString() name: string;
      @IsNumber() count: unknown;
    }
    const serializer = compileResponseSerializer(Counter, { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
    expect(() => serializer.serialize({ name: 'n', count: 1n })).toThrow(TypeError);
    expect(serializer.serialize({ name: 'n', count: 2 })).toBe('{"name":"n","count":2}');
  });
});
