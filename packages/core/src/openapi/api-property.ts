import 'reflect-metadata';
import { TernTypeError } from '../errors';

/**
 * What `@ApiProperty()` adds to a model property's JSON Schema. Each is the JSON Schema / OpenAPI
 * keyword of the same name; `example` is what Swagger UI shows in `/docs`.
 */
export interface ApiPropertyOptions {
  title?: string;
  description?: string;
  /** One example value (Swagger UI fills its request and response samples with it). */
  example?: unknown;
  /** Several example values (JSON Schema `examples`). */
  examples?: unknown[];
  /** The value used when the property is absent; a class field initialiser (`page = 1`) is documented the same way. */
  default?: unknown;
  /** A JSON Schema `format` (`'email'`, `'uri'`, `'int64'`…) the validators do not already say. */
  format?: string;
  deprecated?: boolean;
  /** Sent in responses only: clients should not send it. */
  readOnly?: boolean;
  /** Sent in requests only (a password): responses should not carry it. */
  writeOnly?: boolean;
}

const KEY = 'tern:openapi:property';
const OPTION_TYPES: Record<keyof ApiPropertyOptions, string | undefined> = {
  title: 'string',
  description: 'string',
  example: undefined,
  examples: 'array',
  default: undefined,
  format: 'string',
  deprecated: 'boolean',
  readOnly: 'boolean',
  writeOnly: 'boolean',
};

/**
 * Documents one property of a model class in the OpenAPI document: a description, examples, a
 * default, a format, deprecation, read-only or write-only. It changes nothing about validation.
 * Stored per property with `reflect-metadata`, so subclasses and mapped types
 * (`PartialType(Dto)`…) carry it. Several on one property merge, the upper one winning.
 *
 * @example
 * class CreateUser {
 *   @ApiProperty({ description: 'Shown on the profile', example: 'Ada Lovelace' })
 *   @IsString()
 *   name: string;
 *
 *   @ApiProperty({ writeOnly: true, format: 'password' })
 *   @MinLength(12)
 *   password: string;
 * }
 */
export function ApiProperty(options: ApiPropertyOptions = {}): PropertyDecorator {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', '@ApiProperty(options) expects an object such as { description, example }.');
  }
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(OPTION_TYPES, key)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `@ApiProperty: unknown option '${key}'; known: ${Object.keys(OPTION_TYPES).join(', ')}.`);
    }
    const expected = OPTION_TYPES[key as keyof ApiPropertyOptions];
    const actual = Array.isArray(value) ? 'array' : typeof value;
    if (expected !== undefined && value !== undefined && actual !== expected) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `@ApiProperty: '${key}' must be a ${expected}, got ${actual}.`);
    }
  }
  const own = structuredClone(options);
  return (target, property) => {
    if (typeof property !== 'string') return;
    const earlier = Reflect.getOwnMetadata(KEY, target, property) as ApiPropertyOptions | undefined;
    // Decorators apply bottom up: the one written higher runs later and wins.
    Reflect.defineMetadata(KEY, { ...earlier, ...own }, target, property);
  };
}

/** The `@ApiProperty()` options of a property (inherited from a parent class too), if any. */
export function apiPropertyOf(model: Function, property: string): ApiPropertyOptions | undefined {
  return Reflect.getMetadata(KEY, model.prototype as object, property) as ApiPropertyOptions | undefined;
}
