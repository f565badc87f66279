import { Exclude, Expose, Transform, Type } from 'class-transformer';
import {
  Allow,
  ArrayMaxSize,
  ArrayMinSize,
  Contains,
  IsArray,
  IsBoolean,
  IsDate,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsPhoneNumber,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  MinLength,
  registerDecorator,
  Validate,
  ValidateIf,
  ValidateNested,
  ValidatorConstraint,
  type ValidatorConstraintInterface,
} from 'class-validator';
import { defaultModelCompiler, type ValidationResult } from '../src/validation';

/** Native results are synchronous; `await` also accepts the fallback's Promise. */
async function run<T>(validator: (input: unknown) => ValidationResult<T> | Promise<ValidationResult<T>>, input: unknown) {
  return validator(input);
}

function errorsOf<T>(result: ValidationResult<T>) {
  if (result.ok) throw new Error(`expected a failure, got ${JSON.stringify(result.value)}`);
  return result.errors;
}

class Address {
  @IsString() @MinLength(2) city: string;
  @IsOptional() @IsString() zip?: string;
}

class Item {
  @IsString() @IsNotEmpty() name: string;
  @IsInt() @Min(1) quantity: number;
}

enum Role {
  Admin = 'admin',
  User = 'user',
}

class CreateUser {
  @IsString() @Length(1, 20) name: string;
  @IsInt() @Min(0) @Max(150) age: number;
  @IsEmail() email: string;
  @IsEnum(Role) role: Role;
  @IsOptional() @IsUUID('4') referrer?: string;
  @IsObject() @ValidateNested() @Type(() => Address) address: Address;
  @IsArray() @ArrayMinSize(1) @ValidateNested({ each: true }) @Type(() => Item) items: Item[];
  @IsOptional() @IsString({ each: true }) @ArrayMaxSize(3) tags?: string[];
}

const validUser = {
  name: 'Ada',
  age: 36,
  email: 'ada@example.com',
  role: 'admin',
  address: { city: 'London' },
  items: [{ name: 'book', quantity: 2 }],
};

describe('defaultModelCompiler.compile: the native path', () => {
  const validate = defaultModelCompiler.compile(CreateUser);

  it('compiles the common decorators natively and answers synchronously', () => {
    expect(validate.native).toBe(true);
    expect(validate.fallbackReasons).toEqual([]);
    const result = validate(validUser);
    expect(result).not.toBeInstanceOf(Promise);
    expect((result as ValidationResult<CreateUser>).ok).toBe(true);
  });

  it('returns an instance of the model with nested classes instantiated', async () => {
    const result = await run(validate, validUser);
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).toBeInstanceOf(CreateUser);
    expect(result.value.address).toBeInstanceOf(Address);
    expect(result.value.items[0]).toBeInstanceOf(Item);
    expect(JSON.stringify(result.value)).toBe(JSON.stringify(validUser));
  });

  it('strips properties the model does not declare, at every level', async () => {
    const result = await run(validate, {
      ...validUser,
      isAdmin: true,
      address: { city: 'Paris', planet: 'Earth' },
      items: [{ name: 'pen', quantity: 1, price: 3 }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).not.toHaveProperty('isAdmin');
    expect(result.value.address).not.toHaveProperty('planet');
    expect(result.value.items[0]).not.toHaveProperty('price');
  });

  it('names each failing field by its dotted path with class-validator messages', async () => {
    const result = await run(validate, {
      ...validUser,
      age: 'old',
      address: { city: 5 },
      items: [{ name: 'ok', quantity: 1 }, { name: '', quantity: 0.5 }],
    });
    expect(errorsOf(result)).toEqual([
      { path: 'age', message: 'age must not be greater than 150' },
      { path: 'age', message: 'age must not be less than 0' },
      { path: 'age', message: 'age must be an integer number' },
      { path: 'address.city', message: 'city must be longer than or equal to 2 characters' },
      { path: 'address.city', message: 'city must be a string' },
      { path: 'items.1.name', message: 'name should not be empty' },
      { path: 'items.1.quantity', message: 'quantity must not be less than 1' },
      { path: 'items.1.quantity', message: 'quantity must be an integer number' },
    ]);
  });

  it.each([null, [], [validUser], 'text', 42, true])('refuses a body that is not an object (%p) without throwing', async (input) => {
    expect(errorsOf(await run(validate, input))).toEqual([{ path: '', message: 'body must be an object' }]);
  });

  it('reports a missing nested object and a scalar where an object is expected', async () => {
    const { address: _address, ...withoutAddress } = validUser;
    expect(errorsOf(await run(validate, withoutAddress))).toEqual([{ path: 'address', message: 'address must be an object' }]);
    expect(errorsOf(await run(validate, { ...validUser, items: ['x'] }))).toEqual([
      { path: 'items.0', message: 'each value in nested property items must be either object or array' },
    ]);
  });

  it('applies `each` to every element and keeps one message for the property', async () => {
    // Decorators apply bottom-up, so class-validator (and we) check @ArrayMaxSize first.
    expect(errorsOf(await run(validate, { ...validUser, tags: ['a', 2, 'c', 'd'] }))).toEqual([
      { path: 'tags', message: 'tags must contain no more than 3 elements' },
      { path: 'tags', message: 'each value in tags must be a string' },
    ]);
  });

  it('lets null and missing values through @IsOptional', async () => {
    expect((await run(validate, { ...validUser, referrer: null, tags: null })).ok).toBe(true);
  });

  it('reports undeclared properties with forbidNonWhitelisted', async () => {
    const strict = defaultModelCompiler.compile(CreateUser, { forbidNonWhitelisted: true });
    expect(errorsOf(await run(strict, { ...validUser, extra: 1, address: { city: 'Rome', floor: 2 } }))).toEqual([
      { path: 'extra', message: 'property extra should not exist' },
      { path: 'address.floor', message: 'property floor should not exist' },
    ]);
  });

  it('keeps undeclared properties with whitelist: false', async () => {
    const loose = defaultModelCompiler.compile(CreateUser, { whitelist: false });
    const result = await run(loose, { ...validUser, extra: 1 });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value).toHaveProperty('extra', 1);
  });

  it('never copies __proto__, constructor or names of methods', async () => {
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "toString": 2}');
    const loose = defaultModelCompiler.compile(CreateUser, { whitelist: false });
    const result = await run(loose, { ...validUser, ...input });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(Object.keys(result.value)).not.toEqual(expect.arrayContaining(['__proto__']));
    expect(result.value.constructor).toBe(CreateUser);
    expect(typeof result.value.toString).toBe('function');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('defaultModelCompiler.compile: messages', () => {
  class Messages {
    @IsInt({ message: '$property of $target must be whole, got $value' }) a: number;
    @Min(10, { message: (args) => `${args.property} >= ${args.constraints[0]} please` }) b: number;
    @Length(2, 4) c: string;
    @IsIn(['x', 'y']) d: string;
    @Matches(/^a/) @Matches(/b$/) e: string;
  }
  const validate = defaultModelCompiler.compile(Messages);

  it('uses custom messages and replaces tokens as class-validator does', async () => {
    expect(validate.native).toBe(true);
    expect(errorsOf(await run(validate, { a: 1.5, b: 3, c: 'toolong', d: 'z', e: 'ab' }))).toEqual([
      { path: 'a', message: 'a of Messages must be whole, got 1.5' },
      { path: 'b', message: 'b >= 10 please' },
      { path: 'c', message: 'c must be shorter than or equal to 4 characters' },
      { path: 'd', message: 'd must be one of the following values: x, y' },
    ]);
  });

  it('keeps one message per constraint type, the last failing one, like class-validator', async () => {
    // Both @Matches fail; class-validator files both under `matches`, the later overwriting.
    expect(errorsOf(await run(validate, { a: 1, b: 10, c: 'abc', d: 'x', e: 'zz' }))).toEqual([
      { path: 'e', message: 'e must match /^a/ regular expression' },
    ]);
  });
});

describe('defaultModelCompiler.compile: conditions, conversions and shapes', () => {
  class Conditional {
    @IsBoolean() hasPhone: boolean;
    @ValidateIf((o: Conditional) => o.hasPhone) @IsString() @IsNotEmpty() phone?: string;
    @IsDefined() @IsOptional() kept?: string;
    @Allow() free?: unknown;
  }

  it('runs @ValidateIf conditions and honours @Allow', async () => {
    const validate = defaultModelCompiler.compile(Conditional);
    expect(validate.native).toBe(true);
    expect((await run(validate, { hasPhone: false, free: { any: 'thing' } })).ok).toBe(true);
    expect(errorsOf(await run(validate, { hasPhone: true }))).toEqual([
      { path: 'phone', message: 'phone should not be empty' },
      { path: 'phone', message: 'phone must be a string' },
    ]);
  });

  class Query {
    @Type(() => Number) @IsInt() @Min(1) page = 1;
    @IsOptional() @Type(() => Date) @IsDate() since?: Date;
    @IsOptional() @Type(() => Boolean) @IsBoolean() flag?: boolean;
    @IsNumber({ maxDecimalPlaces: 2 }) @IsOptional() price?: number;
  }

  it('applies @Type conversions and constructor defaults like class-transformer', async () => {
    const validate = defaultModelCompiler.compile(Query);
    expect(validate.native).toBe(true);
    const result = await run(validate, { since: '2024-01-02T00:00:00.000Z', flag: 'yes' });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.page).toBe(1);
    expect(result.value.since).toEqual(new Date('2024-01-02T00:00:00.000Z'));
    expect(result.value.flag).toBe(true);
    expect(errorsOf(await run(validate, { page: '2.5', since: 'soon' }))).toEqual([
      { path: 'page', message: 'page must be an integer number' },
      { path: 'since', message: 'since must be a Date instance' },
    ]);
  });

  it('counts decimal places of exponent forms instead of throwing (class-validator throws)', async () => {
    const validate = defaultModelCompiler.compile(Query);
    expect(errorsOf(await run(validate, { price: 1e-7 }))).toEqual([
      { path: 'price', message: 'price must be a number conforming to the specified constraints' },
    ]);
    expect((await run(validate, { price: 1.25 })).ok).toBe(true);
  });

  class TreeNode {
    @IsString() label: string;
    @IsOptional() @IsArray() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
  }

  it('compiles self-referencing models', async () => {
    const validate = defaultModelCompiler.compile(TreeNode);
    expect(validate.native).toBe(true);
    expect(errorsOf(await run(validate, { label: 'a', children: [{ label: 'b', children: [{ label: 3 }] }] }))).toEqual([
      { path: 'children.0.children.0.label', message: 'label must be a string' },
    ]);
  });

  it('refuses nesting beyond maxDepth on both paths instead of overflowing the stack', async () => {
    let deep: Record<string, unknown> = { label: 'leaf' };
    for (let i = 0; i < 20_000; i++) deep = { label: 'n', children: [deep] };
    const native = defaultModelCompiler.compile(TreeNode);
    expect(errorsOf(await run(native, deep))).toEqual([{ path: '', message: 'body must not be nested deeper than 128 levels' }]);

    class SlowNode extends TreeNode {
      @Contains('n') declare label: string;
    }
    const fallback = defaultModelCompiler.compile(SlowNode, { maxDepth: 10 });
    expect(fallback.native).toBe(false);
    expect(errorsOf(await run(fallback, deep))).toEqual([{ path: '', message: 'body must not be nested deeper than 10 levels' }]);
  });
});

describe('defaultModelCompiler.compile: falling back to class-validator', () => {
  @ValidatorConstraint({ name: 'isEven' })
  class IsEven implements ValidatorConstraintInterface {
    validate(value: unknown) {
      return typeof value === 'number' && value % 2 === 0;
    }
    defaultMessage() {
      return '$property must be even';
    }
  }

  @ValidatorConstraint({ name: 'slowCheck', async: true })
  class SlowCheck implements ValidatorConstraintInterface {
    async validate(value: unknown) {
      return value === 'ok';
    }
    defaultMessage() {
      return '$property is not ok';
    }
  }

  class Custom {
    @Validate(IsEven) n: number;
  }

  class Nesting {
    @ValidateNested() @Type(() => Custom) inner: Custom;
  }

  it('falls back for custom constraints, also when only a nested model has one', async () => {
    const models: Array<new () => object> = [Custom, Nesting];
    for (const model of models) expect(defaultModelCompiler.compile(model).native).toBe(false);
    expect(defaultModelCompiler.compile(Nesting).fallbackReasons).toEqual(['Custom.n: custom constraint isEven']);
    const result = defaultModelCompiler.compile(Nesting)({ inner: { n: 3 } });
    expect(result).toBeInstanceOf(Promise);
    expect(errorsOf(await result)).toEqual([{ path: 'inner.n', message: 'n must be even' }]);
  });

  it('falls back for async constraints, groups and decorators it does not know', async () => {
    class Async {
      @Validate(SlowCheck) s: string;
    }
    class Grouped {
      @IsString({ groups: ['admin'] }) s: string;
    }
    class Phone {
      @IsPhoneNumber('GB') phone: string;
    }
    expect(defaultModelCompiler.compile(Async).native).toBe(false);
    expect(errorsOf(await run(defaultModelCompiler.compile(Async), { s: 'no' }))).toEqual([{ path: 's', message: 's is not ok' }]);
    expect(defaultModelCompiler.compile(Grouped).fallbackReasons).toEqual(['Grouped.s: validation groups']);
    expect(defaultModelCompiler.compile(Phone).fallbackReasons).toEqual(['Phone.phone: @isPhoneNumber is not compiled natively']);
    expect(errorsOf(await run(defaultModelCompiler.compile(Phone), { phone: '123' }))).toEqual([
      { path: 'phone', message: 'phone must be a valid phone number' },
    ]);
  });

  it('does not trust a custom decorator that borrows a native name', async () => {
    class Impostor {
      @IsOddInt() n: number;
    }
    const validate = defaultModelCompiler.compile(Impostor);
    expect(validate.fallbackReasons).toEqual(["Impostor.n: isInt is not class-validator's @IsInt"]);
    expect(errorsOf(await run(validate, { n: 2 }))).toEqual([{ path: 'n', message: 'n must be odd' }]);
  });

  it('still refuses bodies that are not objects', async () => {
    expect(errorsOf(await run(defaultModelCompiler.compile(Custom), null))).toEqual([{ path: '', message: 'body must be an object' }]);
  });

  it('answers bodies class-transformer would choke on as the fallback does, without switching to it', async () => {
    class Meta {
      @IsObject() meta: object;
    }
    const validate = defaultModelCompiler.compile(Meta);
    expect(validate.native).toBe(true);
    expect(errorsOf(await run(validate, JSON.parse('{"meta": {"constructor": 1}}')))).toEqual([
      { path: '', message: 'body could not be converted to Meta' },
    ]);
  });
});

describe('defaultModelCompiler.compile: class-transformer features', () => {
  class Geo {
    @IsInt() lat: number;
  }

  it('falls back for @Transform, @Expose, @Exclude, discriminators and value-dependent @Type', async () => {
    class Transformed {
      @Transform(({ value }) => String(value).trim()) @IsString() name: string;
    }
    class Exposed {
      @Expose({ name: 'full_name' }) @IsString() fullName: string;
    }
    class Excluded {
      @Exclude() @IsOptional() secret?: string;
    }
    class Dynamic {
      @ValidateNested() @Type((options) => (options?.object ? Geo : Geo)) geo: Geo;
    }
    class Discriminated {
      @ValidateNested()
      @Type(() => Geo, { discriminator: { property: 'kind', subTypes: [{ name: 'geo', value: Geo }] } })
      shape: Geo;
    }
    class Buffered {
      @Type(() => Buffer) @IsOptional() data?: Buffer;
    }
    expect(defaultModelCompiler.compile(Transformed).fallbackReasons).toEqual(['Transformed: @Transform on Transformed']);
    expect(defaultModelCompiler.compile(Exposed).fallbackReasons).toEqual(['Exposed: @Expose']);
    expect(defaultModelCompiler.compile(Excluded).fallbackReasons).toEqual(['Excluded: @Exclude']);
    expect(defaultModelCompiler.compile(Dynamic).fallbackReasons).toEqual(['Dynamic.geo: @Type function depends on the value']);
    expect(defaultModelCompiler.compile(Discriminated).fallbackReasons).toEqual(['Discriminated.shape: @Type discriminator']);
    expect(defaultModelCompiler.compile(Buffered).fallbackReasons).toEqual(['Buffered.data: @Type(() => Buffer)']);
    const result = await run(defaultModelCompiler.compile(Transformed), { name: '  Ada  ' });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.value.name).toBe('Ada');
  });

  it('hands a default value of a class it cannot compile to the fallback, per request', async () => {
    class Odd {
      @Validate(EvenConstraint) n = 3;
    }
    class WithDefault {
      @IsOptional() @IsString() label?: string;
      @ValidateNested() odd: unknown = new Odd();
    }
    const validate = defaultModelCompiler.compile(WithDefault);
    expect(validate.native).toBe(true);
    const result = validate({ label: 'x' });
    expect(result).toBeInstanceOf(Promise);
    expect(errorsOf(await result)).toEqual([{ path: 'odd.n', message: 'n must be even' }]);
    expect(validate({ label: 'x', odd: {} })).toEqual({ ok: true, value: expect.any(WithDefault) });
  });

  it('lets errors thrown by user conditions through, as class-validator does', () => {
    class Throwing {
      @ValidateIf(() => {
        throw new Error('condition failed');
      })
      @IsString()
      s: string;
    }
    expect(() => defaultModelCompiler.compile(Throwing)({ s: 'x' })).toThrow('condition failed');
  });

  it('reports a model whose constructor throws as class-transformer would fail on it', () => {
    class Fragile {
      @IsString() s: string;
      constructor() {
        throw new Error('no default constructor');
      }
    }
    expect(defaultModelCompiler.compile(Fragile)({ s: 'x' })).toEqual({
      ok: false,
      errors: [{ path: '', message: 'body could not be converted to Fragile' }],
    });
  });

  it('refuses a maxDepth that is not a positive integer', () => {
    expect(() => defaultModelCompiler.compile(Geo, { maxDepth: 0 })).toThrow(RangeError);
  });
});

@ValidatorConstraint({ name: 'isEven' })
class EvenConstraint implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return typeof value === 'number' && value % 2 === 0;
  }
  defaultMessage() {
    return '$property must be even';
  }
}

function IsOddInt() {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isInt',
      target: object.constructor,
      propertyName,
      validator: {
        validate: (value: unknown) => typeof value === 'number' && Math.abs(value % 2) === 1,
        defaultMessage: () => '$property must be odd',
      },
    });
}
