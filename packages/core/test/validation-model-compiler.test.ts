/**
 * The `ModelCompiler` seam: what core asks of a compiler (a validator per model, a description per
 * model), that compilers with and without code generation live side by side, and that the
 * OpenAPI schema builder learns about models only from the compiler it is given.
 */
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import { SchemaRegistry } from '../src/openapi/schema';
import * as core from '@tern/core';
import { createClassValidatorCompiler, defaultModelCompiler } from '../src/validation/class-validator/compiler';
import type { ModelCompiler, ModelDescription } from '../src/validation/model-compiler';

class Line {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Basket {
  @IsString() @Length(1, 20) owner!: string;
  @IsOptional() @IsInt() discount?: number;
  @IsArray() @ArrayMaxSize(3) @ValidateNested({ each: true }) @Type(() => Line) lines!: Line[];
}

const BAD = { owner: '', lines: [{ sku: 'a', qty: 0 }] };
const ISSUES = [
  { path: 'owner', message: 'owner must be longer than or equal to 1 characters' },
  { path: 'lines.0.qty', message: 'qty must not be less than 1' },
];

describe('createClassValidatorCompiler', () => {
  it('gives the same answers with code generation and without, in one process', async () => {
    const generated = createClassValidatorCompiler().compile(Basket);
    const interpreted = createClassValidatorCompiler({ codegen: false }).compile(Basket);
    expect(generated.native && interpreted.native).toBe(true);
    expect(await generated(BAD)).toEqual({ ok: false, errors: ISSUES });
    expect(await interpreted(BAD)).toEqual({ ok: false, errors: ISSUES });
    const good = await interpreted({ owner: 'ada', lines: [{ sku: 'a', qty: 2 }] });
    expect(good.ok && good.value.lines[0]).toBeInstanceOf(Line);
  });

  it('is the one public way to compile a model (no compileModel beside defaultModelCompiler.compile)', async () => {
    expect('compileModel' in core).toBe(false);
    expect(await core.defaultModelCompiler.compile(Basket)(BAD)).toEqual({ ok: false, errors: ISSUES });
  });

  it('describes a model: properties in source order, rules with their schema keywords', () => {
    const { properties } = defaultModelCompiler.describe(Basket);
    expect(properties.map((p) => [p.name, p.optional, p.nullable])).toEqual([
      ['owner', false, false],
      ['discount', true, true],
      ['lines', false, false],
    ]);
    const lines = properties[2];
    expect(lines.declaredType).toBe(Line);
    expect(lines.rules.map((r) => [r.name, r.nested, r.each, r.appliesTo, r.schema])).toEqual(
      expect.arrayContaining([
        ['isArray', false, false, 'list', { type: 'array' }],
        ['arrayMaxSize', false, false, 'list', { maxItems: 3 }],
        ['', true, true, 'value', undefined],
      ]),
    );
    expect(properties[0].rules.map((r) => r.schema)).toEqual(expect.arrayContaining([{ minLength: 1, maxLength: 20 }]));
  });
});

describe('SchemaRegistry with another ModelCompiler', () => {
  it('describes models only through the compiler it is given', () => {
    const seen: Function[] = [];
    const compiler: ModelCompiler = {
      compile: (model, options) => defaultModelCompiler.compile(model, options),
      describe: (model): ModelDescription => {
        seen.push(model);
        return {
          model,
          properties: [
            {
              name: 'code',
              rules: [{ name: 'custom', nested: false, each: false, appliesTo: 'value', constraints: [], schema: { type: 'string', pattern: '^[A-Z]+$' } }],
              optional: false,
              nullable: false,
              designType: String,
              declaredType: undefined,
            },
          ],
        };
      },
    };
    const registry = new SchemaRegistry(compiler);
    expect(registry.ref(Basket, 'request')).toEqual({ $ref: '#/components/schemas/Basket' });
    expect(seen).toEqual([Basket]);
    expect(registry.components().Basket).toEqual({
      type: 'object',
      properties: { code: { type: 'string', pattern: '^[A-Z]+$' } },
      required: ['code'],
    });
  });
});
