import { assertClass, createMappedClass, propertyKeys } from './inherit';
import type { ClassOf, MappedType } from './types';

/**
 * A class with only the listed properties of `source`: their class-validator rules,
 * class-transformer metadata, defaults and OpenAPI schema. Every other property is unknown to it,
 * so request bodies have it stripped.
 *
 * @example
 * class CreateUser {
 *   @IsString() name!: string;
 *   @IsEmail() email!: string;
 *   @IsString() @MinLength(12) password!: string;
 * }
 * class Login extends PickType(CreateUser, ['email', 'password'] as const) {}
 * // a Login body needs `email` and `password`; `name` is stripped
 */
export function PickType<T, const K extends keyof T>(source: ClassOf<T>, keys: readonly K[]): MappedType<Pick<T, K>> {
  assertClass('PickType', source);
  const picked = propertyKeys('PickType', source, keys);
  return createMappedClass<Pick<T, K>>(`Pick${source.name}`, [{ source, keep: (key) => picked.has(key) }]).cls;
}
