/**
 * Validation that a client cannot turn against the server: the error list is bounded, the work
 * grows with the body's size and never with the square of an object's key count, a decorator
 * that borrows a built-in's name keeps its own meaning, and a value that makes a built-in check
 * throw is a 422. Every test goes through `app.inject()` and looks at what the client gets (or,
 * for cost, at how much of the body class-transformer is handed), never at the clock.
 */
import * as classTransformer from 'class-transformer';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsEmail,
  IsIn,
  IsInt,
  IsObject,
  IsString,
  Length,
  registerDecorator,
  Validate,
  ValidateNested,
  ValidatorConstraint,
  isEmail,
  type ValidationOptions,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { TernApp } from '@tern/core';
import { defaultModelCompiler } from '../src/validation';

@ValidatorConstraint({ name: 'even' })
class Even implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage(): string {
    return '$property must be even';
  }
}

class Item {
  @IsInt() n: number;
}
class Items {
  @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
}
class BoundedItems {
  @ArrayMaxSize(100) @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
}
/** A custom constraint: always validated by class-transformer + class-validator. */
class FallbackItem {
  @Validate(Even) n: number;
}
class FallbackItems {
  @ValidateNested({ each: true }) @Type(() => FallbackItem) items: FallbackItem[];
}
class Named {
  @IsString() @Length(1, 50) name: string;
}
class FallbackNamed {
  @IsString() @Length(1, 50) name: string;
  @Validate(Even) count: number;
}

function appFor(model: new () => object): TernApp {
  const app = new TernApp();
  app.post('/', { requestModel: model }, async (req) => ({ body: req.body }));
  return app;
}

const ONE_MIB_OF_ONES = `{"items":[${new Array(500_000).fill('1').join(',')}]}`;
const json = { 'content-type': 'application/json' };

describe('B1: a 422 has a bounded size', () => {
  it.each([['native', Items]])('lists at most 100 issues for 500,000 bad elements (%s model)', async (_kind, model) => {
    const response = await appFor(model).inject({ method: 'POST', url: '/', headers: json, payload: ONE_MIB_OF_ONES });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toHaveLength(100);
    expect(response.json().errors[0]).toEqual({ path: 'items.0', message: 'each value in nested property items must be either object or array' });
    expect(response.body.length).toBeLessThan(20_000);
  });

  it('refuses 500,000 values for a fallback model before building any (maxFallbackValues)', async () => {
    const response = await appFor(FallbackItems).inject({ method: 'POST', url: '/', headers: json, payload: ONE_MIB_OF_ONES });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ path: '', message: 'body must not contain more than 10000 values' }]);
  });

  it('counts the issues it left out', async () => {
    for (const validate of [defaultModelCompiler.compile(Items), defaultModelCompiler.compile(FallbackItems, { maxFallbackValues: 600_000 })]) {
      const result = await validate(JSON.parse(ONE_MIB_OF_ONES));
      expect(result).toMatchObject({ ok: false, omitted: 500_000 - 100 });
    }
    const few = await defaultModelCompiler.compile(Items, { maxIssues: 3 })({ items: [1, 1, 1, 1] });
    expect(few).toEqual({
      ok: false,
      errors: [0, 1, 2].map((i) => ({ path: `items.${i}`, message: 'each value in nested property items must be either object or array' })),
      omitted: 1,
    });
  });

  it('does not walk an array whose size rule failed', async () => {
    const response = await appFor(BoundedItems).inject({ method: 'POST', url: '/', headers: json, payload: ONE_MIB_OF_ONES });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ path: 'items', message: 'items must contain no more than 100 elements' }]);
  });
});

describe('B2: validating costs time linear in the body size', () => {
  let seen: number[];
  let spy: jest.SpyInstance;
  beforeEach(() => {
    seen = [];
    const original = classTransformer.plainToInstance;
    spy = jest.spyOn(classTransformer, 'plainToInstance').mockImplementation(((cls: never, plain: object) => {
      seen.push(Object.keys(plain).length);
      return original(cls, plain);
    }) as typeof classTransformer.plainToInstance);
  });
  afterEach(() => spy.mockRestore());

  const junk = (count: number, extra = '') =>
    `{"name":"Ada",${Array.from({ length: count }, (_, i) => `"k${i}":0`).join(',')}${extra}}`;

  it('refuses an object with more than 1000 keys before class-transformer sees it', async () => {
    const payload = junk(90_000, ',"zz":{"constructor":1}');
    for (const model of [Named, FallbackNamed]) {
      const response = await appFor(model).inject({ method: 'POST', url: '/', headers: json, payload });
      expect(response.statusCode).toBe(422);
      expect(response.json().errors).toEqual([{ path: '', message: 'body must not contain objects with more than 1000 properties' }]);
    }
    expect(seen).toEqual([]);
  });

  it('never switches a native model to class-transformer because of a key name', async () => {
    const response = await appFor(Named).inject({ method: 'POST', url: '/', headers: json, payload: junk(900, ',"zz":{"constructor":1}') });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ path: '', message: 'body could not be converted to Named' }]);
    const falsy = await appFor(Named).inject({ method: 'POST', url: '/', headers: json, payload: '{"name":"Ada","zz":{"constructor":null}}' });
    expect(falsy.json()).toEqual({ body: { name: 'Ada' } });
    expect(seen).toEqual([]);
  });

  it('hands class-transformer only the declared keys of a fallback model', async () => {
    const response = await appFor(FallbackNamed).inject({ method: 'POST', url: '/', headers: json, payload: junk(900, ',"count":2') });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: { name: 'Ada', count: 2 } });
    expect(seen).toEqual([2]);
  });

  it('keeps maxKeys configurable', async () => {
    const result = await defaultModelCompiler.compile(Named, { maxKeys: 2 })({ name: 'Ada', a: 1, b: 2 });
    expect(result).toEqual({ ok: false, errors: [{ path: '', message: 'body must not contain objects with more than 2 properties' }] });
    expect(() => defaultModelCompiler.compile(Named, { maxKeys: 0 })).toThrow(RangeError);
  });
});

/** A user's e-mail rule registered under class-validator's own name. */
function IsCompanyEmail(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isEmail',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => isEmail(value) && String(value).endsWith('@example.com'),
        defaultMessage: () => '$property must be a company address',
      },
    });
}

/** A user's case-insensitive `isIn`. */
function IsInIgnoringCase(values: string[], options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isIn',
      target: target.constructor,
      propertyName,
      options,
      constraints: [values],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && values.includes(value.toLowerCase()),
        defaultMessage: () => '$property must be one of $constraint1',
      },
    });
}

class Employee {
  @IsCompanyEmail() email: string;
  @IsInIgnoringCase(['red', 'green']) color: string;
}
class Reference {
  @IsEmail() email: string;
  @IsIn(['red', 'green']) color: string;
}

describe('B3: built-in checks are recognised by identity, not by name', () => {
  it('runs a user decorator named isEmail or isIn as the user wrote it', async () => {
    const app = appFor(Employee);
    const outsider = await app.inject({ method: 'POST', url: '/', payload: { email: 'ada@gmail.com', color: 'red' } });
    expect(outsider.statusCode).toBe(422);
    expect(outsider.json().errors).toEqual([{ path: 'email', message: 'email must be a company address' }]);
    const shouting = await app.inject({ method: 'POST', url: '/', payload: { email: 'ada@example.com', color: 'RED' } });
    expect(shouting.statusCode).toBe(200);
    expect(defaultModelCompiler.compile(Employee).fallbackReasons).toEqual([
      "Employee.email: isEmail is not class-validator's @IsEmail",
      "Employee.color: isIn is not class-validator's @IsIn",
    ]);
  });

  it('still compiles class-validator’s own decorators natively', () => {
    expect(defaultModelCompiler.compile(Reference).native).toBe(true);
  });
});

class Contact {
  @IsEmail() email: string;
}
class FallbackContact {
  @IsEmail() email: string;
  @Validate(Even) count: number;
}

describe('B4: a value a built-in check throws on is an invalid value', () => {
  it.each([
    ['native', Contact, '{"email":"\\ud800"}'],
    ['fallback', FallbackContact, '{"email":"\\ud800","count":2}'],
  ])('answers 422, not 500 (%s model)', async (_kind, model, payload) => {
    const response = await appFor(model).inject({ method: 'POST', url: '/', headers: json, payload });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual([{ path: 'email', message: 'email must be an email' }]);
  });
});

class Untyped {
  /** Nested validation without `@Type`: the value stays a plain object that no rule describes. */
  @IsObject() @ValidateNested() address: object;
}

describe('B5: nested values without @Type are validated as with forbidUnknownValues: false', () => {
  const payload = { address: { city: 'Oslo', isAdmin: true } };

  it('strips every key of such an object (whitelist), so no unchecked field reaches the handler', async () => {
    const response = await appFor(Untyped).inject({ method: 'POST', url: '/', payload });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ body: { address: {} } });
  });

  it('reports each key with forbidNonWhitelisted, and no "unknown value" error', async () => {
    const result = await defaultModelCompiler.compile(Untyped, { forbidNonWhitelisted: true })(payload);
    expect(result).toEqual({
      ok: false,
      errors: [
        { path: 'address.city', message: 'property city should not exist' },
        { path: 'address.isAdmin', message: 'property isAdmin should not exist' },
      ],
    });
  });
});
