/**
 * Fuzzing request models through `app.inject()`: random JSON bodies (near each model's shape or
 * anything at all, with lone surrogates, `constructor` keys, junk keys and long arrays mixed in)
 * against models of every kind, native and fallback, flat, nested and arrays. Whatever the body,
 * the answer is never a 5xx and its size stays under a fixed bound.
 *
 * 2,400 bodies by default; set TERN_FUZZ_RUNS for more (e.g. TERN_FUZZ_RUNS=100000).
 */
import fc from 'fast-check';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { TernApp } from '@tern/core';

const RUNS = Number(process.env.TERN_FUZZ_RUNS ?? 2400);
/** 100 issues of a few hundred bytes each, plus the problem's own fields. */
const MAX_RESPONSE_BYTES = 64 * 1024;

@ValidatorConstraint({ name: 'shortWord' })
class ShortWord implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && /^\w{0,8}$/.test(value);
  }
  defaultMessage(): string {
    return '$property must be a short word';
  }
}

enum Role {
  Admin = 'admin',
  User = 'user',
}

class Geo {
  @IsNumber() @Min(-90) @Max(90) lat: number;
  @IsNumber() lng: number;
}

class Address {
  @IsString() @Length(1, 20) city: string;
  @IsOptional() @Matches(/^\d{5}$/) zip?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Geo) geo?: Geo;
}

class Line {
  @IsString() sku: string;
  @IsInt() @Min(1) qty: number;
}

/** Native: formats, enums, nested objects and arrays of them. */
class Order {
  @IsEmail() email: string;
  @IsOptional() @IsUrl() site?: string;
  @IsOptional() @IsUUID('4') id?: string;
  @IsOptional() @IsDateString() at?: string;
  @IsEnum(Role) role: Role;
  @IsIn(['a', 'b']) kind: string;
  @IsBoolean() gift: boolean;
  @IsObject() @ValidateNested() @Type(() => Address) address: Address;
  @IsArray() @ArrayMaxSize(20) @ValidateNested({ each: true }) @Type(() => Line) lines: Line[];
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) unbounded?: Line[];
  @IsOptional() @ValidateNested() untyped?: object;
}

/** Fallback: a custom constraint and a @Transform, with nested classes. */
class Profile {
  @Validate(ShortWord) nick: string;
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value)) @IsString() name: string;
  @IsOptional() @IsEmail() email?: string;
  @IsOptional() @IsObject() @ValidateNested() @Type(() => Address) address?: Address;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => Line) lines?: Line[];
}

/** Fallback through a nested class only. */
class Wrapper {
  @IsString() label: string;
  @ValidateNested() @Type(() => Profile) profile: Profile;
}

const KEYS = ['email', 'site', 'id', 'at', 'role', 'kind', 'gift', 'address', 'lines', 'unbounded', 'untyped',
  'nick', 'name', 'profile', 'label', 'city', 'zip', 'geo', 'lat', 'lng', 'sku', 'qty', 'constructor', 'toString', 'x'];

/** Strings that stress checks: lone surrogates, e-mail and URL look-alikes, long runs. */
const nastyString = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom('\ud800', '\udfff@example.com', 'a@\ud800.com', 'http://\ud800', 'ada@example.com', 'https://tern.dev', 'admin', 'a'),
  fc.string({ maxLength: 300 }),
);

const leaf = fc.oneof(fc.jsonValue({ maxDepth: 0 }), nastyString, fc.constant(null));

/** JSON values that keep reusing model keys, so bodies often reach the nested rules. */
const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('object'), tie('array')),
  object: fc.dictionary(fc.oneof(fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), tie('value'), { maxKeys: 8 }),
  array: fc.oneof(fc.array(tie('value'), { maxLength: 6 }), fc.integer({ min: 0, max: 500 }).map((n) => new Array(n).fill(1))),
})).object;

const body = fc.oneof(
  { weight: 12, arbitrary: shaped.map((v) => JSON.stringify(v)) },
  { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  // An object with many junk keys, sometimes over the per-object key limit.
  { weight: 1, arbitrary: fc.integer({ min: 990, max: 1010 }).map((n) => JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i])))) },
);

const MODELS: Array<[string, new () => object]> = [
  ['native, nested and arrays', Order],
  ['fallback (custom constraint, @Transform)', Profile],
  ['fallback through a nested class', Wrapper],
];

describe.each(MODELS)('fuzzing a %s model', (_kind, model) => {
  const app = new TernApp();
  app.post('/', { requestModel: model }, async (req) => ({ ok: true, body: req.body }));

  it('never answers 5xx and keeps every answer small', async () => {
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const response = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, payload });
        expect(response.statusCode).toBeLessThan(500);
        // A 200 echoes the (valid) body back; every refusal must stay small.
        const refusalBytes = response.statusCode === 200 ? 0 : Buffer.byteLength(response.body);
        expect(refusalBytes).toBeLessThan(MAX_RESPONSE_BYTES);
      }),
      { numRuns: Math.ceil(RUNS / MODELS.length) },
    );
  });
});
