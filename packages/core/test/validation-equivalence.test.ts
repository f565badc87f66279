/**
 * Equivalence proof: for representative models, the compiled validator and the reference path
 * (class-transformer `plainToInstance` + class-validator `validate`) agree on arbitrary JSON: same
 * verdict, same issues (paths, messages and order), and when valid the same instance.
 *
 * Inputs are valid bodies with a few random mutations (a key removed, a value replaced by an edge
 * value or arbitrary JSON, an undeclared key added), at any depth, so most runs sit near the
 * boundary between valid and invalid.
 */
import fc from 'fast-check';
import { plainToInstance, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  IsArray,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEmpty,
  IsEnum,
  IsIn,
  IsInt,
  IsISO8601,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  validate,
  ValidateIf,
  ValidateNested,
  type ValidationError,
} from 'class-validator';
import { type CompileOptions, type ValidationIssue, type ValidationResult } from '../src/validation';
import { createClassValidatorCompiler } from '../src/validation/class-validator/compiler';
import type { ModelCompiler } from '../src/validation/model-compiler';

// ---------------------------------------------------------------------------------------------
// Models
// ---------------------------------------------------------------------------------------------

class Flat {
  @IsString() @MinLength(2) @MaxLength(8) name: string;
  @IsInt() @Min(0) @Max(120) age: number;
  @IsNumber() @IsPositive() score: number;
  @IsOptional() @IsNumber({ maxDecimalPlaces: 2 }) price?: number;
  @IsOptional() @IsNumber({ allowNaN: true, allowInfinity: true }) loose?: number;
  @IsBoolean() active: boolean;
  @IsEmail() email: string;
  @IsOptional() @IsUUID('4') id?: string;
  @IsOptional() @IsUrl() site?: string;
  @Matches(/^[a-z]+$/i, { message: '$property must be letters, got $value' }) code: string;
  @Length(3, 5) @IsNotEmpty() pin: string;
  @IsOptional() @IsDateString() born?: string;
  @IsOptional() @IsISO8601({ strict: true }) at?: string;
  @IsOptional() @IsNegative() debt?: number;
  @IsEmpty() nothing?: unknown;
}

class Geo {
  @IsNumber() @Min(-90) @Max(90) lat: number;
  @IsNumber() lng: number;
}

class Address {
  @IsString() @MinLength(2) city: string;
  @IsOptional() @Matches('^\\d{5}$') zip?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Geo) geo?: Geo;
}

class Profile {
  @IsString() nick: string;
  @IsObject() @ValidateNested() @Type(() => Address) address: Address;
  /** @ValidateNested alone: lets arrays and a missing value through (see notes). */
  @ValidateNested() @Type(() => Address) billing?: Address;
  /** Nested without @Type: class-validator sees a plain object and whitelists every key away. */
  @IsOptional() @ValidateNested() untyped?: object;
  /** The same for each element (forbidUnknownValues: false: no "unknown value" error). */
  @IsOptional() @ValidateNested({ each: true }) untypedList?: object[];
  /** Untyped object, not validated: copied as is. */
  @IsOptional() @IsObject() meta?: object;
  /** Typed but not validated: instantiated, undeclared keys kept. */
  @IsOptional() @Type(() => Address) shipping?: Address;
}

class Line {
  @IsString() @IsNotEmpty() sku: string;
  @IsInt() @IsPositive() qty: number;
  @IsOptional() @IsNumber() @Min(0) price?: number;
}

class Order {
  @IsArray() @ArrayNotEmpty() @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Line) lines: Line[];
  @IsOptional() @IsInt({ each: true }) @ArrayMinSize(1) codes?: number[];
  @IsOptional() @IsIn(['a', 'b'], { each: true }) flags?: string[];
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) matrix?: Line[][];
}

enum Color {
  Red = 'red',
  Green = 'green',
}
enum Level {
  Low = 1,
  High = 2,
}

class Enums {
  @IsEnum(Color) color: Color;
  @IsEnum(Level) level: Level;
  @IsIn([1, 'one', true, null]) mixed: unknown;
  @IsOptional() @IsEnum(Color, { each: true }) palette?: Color[];
}

class Optionals {
  @IsString() kind: string;
  @IsOptional() @IsString() a?: string;
  @ValidateIf((o: Optionals) => o.kind === 'x') @IsString() @IsNotEmpty() xValue?: string;
  @IsOptional() @IsEmpty() empty?: unknown;
  @IsDefined() defined: unknown;
  @IsDefined() @IsOptional() definedOrNull?: unknown;
  /** Two conditions: both must hold. */
  @IsOptional() @ValidateIf((o: Optionals) => o.kind !== 'y') @IsInt() both?: number;
  /** Registered after @IsString, checked before it. */
  @IsDefined() @IsString() required: string;
  @IsString({ validateIf: (o: Optionals) => o.kind !== 'skip' }) sometimes?: string;
  @Allow() free?: unknown;
  @IsInt() counter = 0;
  /** class-transformer never overwrites a function, even with a value from the body. */
  @Allow() callback: unknown = () => 'default';
  /** Defaults that are no JSON: `each` over a Set, nested rules of a class met only at runtime. */
  @IsString({ each: true }) aliases: unknown = new Set(['a', 1]);
  @ValidateNested() origin: unknown = new Geo();
  /** Declared without a decorator: an own property of every instance, whitelisted away. */
  note?: string;
}

class Query {
  @Type(() => Number) @IsInt() @Min(1) page = 1;
  @IsOptional() @Type(() => Date) @IsDate() since?: Date;
  @IsOptional() @Type(() => String) @MaxLength(3) label?: string;
  @IsOptional() @Type(() => Boolean) @IsBoolean() flag?: boolean;
  @IsOptional() @Matches(/^a/) @Matches(/b$/) ab?: string;
  @IsOptional() @Min(5, { message: (args) => `${args.property} must be >= ${args.constraints[0]}, got ${String(args.value)}` })
  big?: number;
}

class Base {
  @IsString() id: string;
  @IsInt() n: number;
}
class Derived extends Base {
  @IsPositive() declare n: number;
  @IsOptional() @IsBoolean() extra?: boolean;
}

/** Properties the constructor does not create (no class fields): the output keeps input order. */
interface LegacyShape {
  b: string;
  a: number;
  c?: string;
  geo?: Geo;
}
const Legacy = class Legacy {} as new () => LegacyShape;
IsString()(Legacy.prototype, 'b');
IsInt()(Legacy.prototype, 'a');
IsString()(Legacy.prototype, 'c');
IsOptional()(Legacy.prototype, 'c');
ValidateNested()(Legacy.prototype, 'geo');
IsOptional()(Legacy.prototype, 'geo');
Type(() => Geo)(Legacy.prototype, 'geo');

// ---------------------------------------------------------------------------------------------
// Reference path and comparison
// ---------------------------------------------------------------------------------------------

type Model = new () => object;
type Outcome =
  | { kind: 'result'; result: ValidationResult<object> }
  | { kind: 'transform-threw' }
  | { kind: 'validate-threw' };

/** Size rules after whose failure Tern does not walk the array (a documented, deliberate difference). */
const SIZE_RULES = ['arrayMaxSize', 'arrayMinSize', 'arrayNotEmpty'];

function flatten(errors: ValidationError[], prefix: string, out: ValidationIssue[]): ValidationIssue[] {
  for (const error of errors) {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const constraints = { ...error.constraints };
    const cut = SIZE_RULES.some((rule) => rule in constraints);
    if (cut) delete constraints.nestedValidation;
    for (const message of Object.values(constraints)) out.push({ path, message });
    if (!cut) flatten(error.children ?? [], path, out);
  }
  return out;
}

/** What a handler would get from class-transformer + class-validator used the textbook way. */
async function reference(model: Model, input: unknown, options: CompileOptions): Promise<Outcome> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { kind: 'result', result: { ok: false, errors: [{ path: '', message: 'body must be an object' }] } };
  }
  let instance: object;
  try {
    instance = plainToInstance(model, input);
  } catch {
    return { kind: 'transform-threw' };
  }
  // Tern's one deliberate difference (validation/unsent.ts): ES2022 class fields the body did not
  // send are not left as own `undefined` properties (nor reported by forbidNonWhitelisted).
  withoutOwnUndefined(instance);
  let errors: ValidationError[];
  try {
    errors = await validate(instance, {
      whitelist: options.whitelist ?? true,
      forbidNonWhitelisted: options.forbidNonWhitelisted ?? false,
      forbidUnknownValues: false,
    });
  } catch {
    return { kind: 'validate-threw' };
  }
  if (errors.length > 0) return { kind: 'result', result: { ok: false, errors: flatten(errors, '', []) } };
  return { kind: 'result', result: { ok: true, value: instance } };
}

function withoutOwnUndefined(value: unknown): void {
  if (typeof value !== 'object' || value === null || value instanceof Date) return;
  if (Array.isArray(value)) return value.forEach(withoutOwnUndefined);
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) delete (value as Record<string, unknown>)[key];
    else withoutOwnUndefined(field);
  }
}

/** Class names, dates and values of an instance tree, for a comparison stricter than JSON. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (typeof value === 'function') return { function: value.toString() };
  if (value instanceof Date) return { date: isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
  if (typeof value === 'object' && value !== null) {
    return { class: value.constructor?.name, entries: Object.entries(value).map(([k, v]) => [k, shape(v)]) };
  }
  return value;
}

async function expectEquivalent(compiler: ModelCompiler, model: Model, options: CompileOptions, input: unknown): Promise<void> {
  const compiled = compiler.compile(model, options);
  expect(compiled.native).toBe(true);
  const expected = await reference(model, input, options);
  const actual = await compiled(input);
  if (expected.kind === 'validate-threw') return; // class-validator crashed (e.g. 1e-7 with maxDecimalPlaces): no oracle
  if (expected.kind === 'transform-threw') {
    expect(actual).toEqual({ ok: false, errors: [{ path: '', message: `body could not be converted to ${model.name}` }] });
    return;
  }
  const result = expected.result;
  expect(actual.ok).toBe(result.ok);
  if (!actual.ok && !result.ok) expect(actual.errors).toEqual(result.errors);
  if (actual.ok && result.ok) {
    expect(actual.value).toBeInstanceOf(model);
    expect(JSON.stringify(actual.value)).toBe(JSON.stringify(result.value));
    expect(shape(actual.value)).toEqual(shape(result.value));
  }
}

// ---------------------------------------------------------------------------------------------
// Inputs: valid bodies plus mutations
// ---------------------------------------------------------------------------------------------

const UUID4 = '123e4567-e89b-42d3-a456-426614174000';
const EDGE_VALUES: unknown[] = [
  null, true, false, 0, 1, -1, 2, 1.5, 2.005, -3.25, 1e-7, 1e21, 120, 121, 150, -91, 90,
  '', ' ', 'a', 'ab', 'abc', 'abcde', 'abcdefghijk', 'x', 'ada@example.com', 'ada@', 'https://tern.dev', 'tern',
  UUID4, '123e4567-e89b-12d3-a456-426614174000', '2020-01-01', '2020-02-30', '2020-01-01T10:00:00Z', '10:00',
  'red', 'green', 'blue', 'one', '1', '5', 'true', 'ab', 'axb', '12345', '1234', 'skip',
  [], [1], ['a'], ['a', 'b', 'c', 'd'], [[]], [{}], {}, { city: 'Oslo' }, { sku: 'x', qty: 1 }, { lat: 1, lng: 2 },
];
const KEYS = [
  ...new Set([
    ...['name', 'age', 'score', 'price', 'loose', 'active', 'email', 'id', 'site', 'code', 'pin', 'born', 'at', 'debt', 'nothing'],
    ...['lat', 'lng', 'city', 'zip', 'geo', 'nick', 'address', 'billing', 'untyped', 'meta', 'shipping'],
    ...['sku', 'qty', 'lines', 'codes', 'flags', 'matrix', 'color', 'level', 'mixed', 'palette'],
    ...['kind', 'a', 'xValue', 'empty', 'defined', 'definedOrNull', 'both', 'required', 'sometimes', 'free', 'counter', 'callback', 'aliases', 'origin', 'note'],
    ...['page', 'since', 'label', 'flag', 'ab', 'big', 'n', 'extra', 'b'],
    ...['unknown', '0'],
  ]),
];
/** Undeclared names class-transformer treats specially. */
const SPECIAL_KEYS = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

const edgeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...EDGE_VALUES) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  { weight: 1, arbitrary: fc.double() },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** Hit the `target`-th container; change one of its own keys (`pick`-th) or any name in KEYS. */
type Mutation = { target: number; op: 'delete' | 'set'; own: boolean; pick: number; key: string; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  target: fc.nat(),
  op: fc.constantFrom('delete', 'set', 'set'),
  own: fc.boolean(),
  pick: fc.nat(),
  key: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...KEYS) }, { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_KEYS) }),
  value: edgeValue,
});

/** Objects and arrays inside `root` (root first), the places a mutation can hit. */
function containers(root: unknown, out: Array<Record<string, unknown> | unknown[]> = []) {
  if (typeof root === 'object' && root !== null) {
    out.push(root as Record<string, unknown>);
    for (const child of Object.values(root)) containers(child, out);
  }
  return out;
}

function mutate(valid: unknown, mutations: Mutation[]): unknown {
  const root = JSON.parse(JSON.stringify(valid));
  for (const m of mutations) {
    const all = containers(root);
    const target = all[m.target % all.length];
    const own = Object.keys(target);
    const key = (m.own || Array.isArray(target)) && own.length > 0 ? own[m.pick % own.length] : m.key;
    // Edge values are shared constants: insert a copy, never the constant itself.
    const value = structuredClone(m.value);
    if (m.op === 'delete') delete (target as Record<string, unknown>)[key];
    else Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  }
  // Through JSON text, so the input is exactly what a JSON parser produces (own __proto__ keys included).
  return JSON.parse(JSON.stringify(root));
}

function inputs(valid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.tuple(valid, fc.array(mutation, { maxLength: 3 })).map(([v, ms]) => mutate(v, ms)) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });
const validFlat = fc.record(
  {
    name: fc.string({ minLength: 2, maxLength: 8 }),
    age: fc.integer({ min: 0, max: 120 }),
    score: fc.double({ min: 0.001, max: 1e6, noNaN: true }),
    price: optional(fc.constantFrom(1, 1.5, 2.25, 10)),
    loose: optional(fc.double()),
    active: fc.boolean(),
    email: fc.emailAddress(),
    id: optional(fc.uuid({ version: 4 })),
    site: optional(fc.webUrl()),
    code: fc.stringMatching(/^[a-zA-Z]{1,6}$/),
    pin: fc.stringMatching(/^[0-9]{3,5}$/),
    born: optional(fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString())),
    at: optional(fc.constantFrom('2020-01-01', '2020-01-01T10:00:00Z', '2020-02-30')),
    debt: optional(fc.integer({ min: -100, max: -1 })),
  },
  { requiredKeys: ['name', 'age', 'score', 'active', 'email', 'code', 'pin'] },
);
const validGeo = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ noNaN: true }) });
const validAddress = fc.record(
  { city: fc.string({ minLength: 2, maxLength: 6 }), zip: fc.stringMatching(/^\d{5}$/), geo: validGeo },
  { requiredKeys: ['city'] },
);
const validProfile = fc.record(
  {
    nick: fc.string({ maxLength: 6 }),
    address: validAddress,
    billing: validAddress,
    untyped: fc.object({ maxDepth: 1 }),
    untypedList: fc.array(fc.object({ maxDepth: 1 }), { maxLength: 3 }),
    meta: fc.object({ maxDepth: 1 }),
    shipping: validAddress,
  },
  { requiredKeys: ['nick', 'address'] },
);
const validLine = fc.record(
  { sku: fc.string({ minLength: 1, maxLength: 4 }), qty: fc.integer({ min: 1, max: 9 }), price: fc.nat(100) },
  { requiredKeys: ['sku', 'qty'] },
);
const validOrder = fc.record(
  {
    lines: fc.array(validLine, { minLength: 1, maxLength: 3 }),
    codes: fc.array(fc.integer(), { minLength: 1, maxLength: 3 }),
    flags: fc.array(fc.constantFrom('a', 'b'), { maxLength: 3 }),
    matrix: fc.array(fc.array(validLine, { maxLength: 2 }), { maxLength: 2 }),
  },
  { requiredKeys: ['lines'] },
);
const validEnums = fc.record(
  {
    color: fc.constantFrom('red', 'green'),
    level: fc.constantFrom(1, 2),
    mixed: fc.constantFrom(1, 'one', true, null),
    palette: fc.array(fc.constantFrom('red', 'green'), { maxLength: 3 }),
  },
  { requiredKeys: ['color', 'level', 'mixed'] },
);
const validOptionals = fc.record(
  {
    kind: fc.constantFrom('x', 'y', 'skip'),
    a: fc.string({ maxLength: 3 }),
    xValue: fc.string({ minLength: 1, maxLength: 3 }),
    empty: fc.constantFrom('', null),
    defined: fc.jsonValue({ maxDepth: 1 }).filter((v) => v !== null),
    definedOrNull: fc.constantFrom(null, 1, 'x'),
    sometimes: fc.string({ maxLength: 3 }),
    free: fc.jsonValue({ maxDepth: 1 }),
    counter: fc.integer(),
    callback: fc.integer(),
    aliases: fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
    origin: fc.oneof(validGeo, fc.constant({})),
    both: fc.integer(),
    required: fc.string({ maxLength: 3 }),
  },
  { requiredKeys: ['kind', 'defined', 'xValue', 'sometimes', 'required', 'aliases', 'origin'] },
);
const validQuery = fc.record(
  {
    page: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 50 }).map(String)),
    since: fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((d) => d.toISOString()),
    label: fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: 0, max: 999 })),
    flag: fc.oneof(fc.boolean(), fc.constantFrom('', 'false', 0, 1)),
    ab: fc.constantFrom('ab', 'aab', 'axb'),
    big: fc.integer({ min: 5, max: 99 }),
  },
  { requiredKeys: [] },
);
const validDerived = fc.record(
  { id: fc.string({ maxLength: 4 }), n: fc.integer({ min: 1, max: 9 }), extra: fc.boolean() },
  { requiredKeys: ['id', 'n'] },
);

const validLegacy = fc.record(
  { b: fc.string({ maxLength: 3 }), a: fc.integer(), c: fc.string({ maxLength: 3 }), geo: validGeo },
  { requiredKeys: ['a', 'b'] },
);

const CASES: Array<[string, Model, fc.Arbitrary<unknown>]> = [
  ['flat', Flat, validFlat],
  ['nested', Profile, validProfile],
  ['arrays of nested', Order, validOrder],
  ['enums', Enums, validEnums],
  ['optional and nullable', Optionals, validOptionals],
  ['conversions and messages', Query, validQuery],
  ['inheritance', Derived, validDerived],
  ['no class fields', Legacy, validLegacy],
];
const OPTION_SETS: Array<[string, CompileOptions, number]> = [
  ['defaults', {}, 200],
  ['forbidNonWhitelisted', { forbidNonWhitelisted: true }, 100],
  ['whitelist: false', { whitelist: false }, 100],
];

const ENGINES: Array<[string, ModelCompiler]> = [
  ['generated code', createClassValidatorCompiler()],
  ['interpreter', createClassValidatorCompiler({ codegen: false })],
];

describe.each(ENGINES)('compiled validators (%s) agree with class-transformer + class-validator', (engine, compiler) => {
  describe.each(OPTION_SETS)('%s', (_label, options, numRuns) => {
    it.each(CASES)('%s', async (_name, model, valid) => {
      // The interpreter shares most code with the generated path: half the runs suffice.
      const runs = engine === 'generated code' ? numRuns : numRuns / 2;
      await fc.assert(
        fc.asyncProperty(inputs(valid), (input) => expectEquivalent(compiler, model, options, input)),
        { numRuns: runs },
      );
    });
  });
});

it('reaches both verdicts on every model (the generators sit on the boundary)', async () => {
  for (const [, model, valid] of CASES) {
    const verdicts = new Set<boolean>();
    const compiled = ENGINES[0][1].compile(model);
    for (const input of fc.sample(inputs(valid), { numRuns: 200, seed: 42 })) verdicts.add((await compiled(input)).ok);
    expect([...verdicts].sort()).toEqual([false, true]);
  }
});
