import { assertClass, createMappedClass, propertyKeys } from './inherit';
import type { ClassOf, MappedType } from './types';

/**
 * A class with every property of `source` except the listed ones: their class-validator rules,
 * class-transformer metadata, defaults and OpenAPI schema. The omitted properties are unknown to
 * it, so request bodies have them stripped.
 *
 * @example
 * class User {
 *   @IsInt() id!: number;
 *   @IsString() name!: string;
 *   @IsEmail() email!: string;
 * }
 * class CreateUser extends OmitType(User, ['id'] as const) {}
 * // a CreateUser body needs `name` and `email`; an `id` sent by the client is stripped
 */
export function OmitType<T, const K extends keyof T>(source: ClassOf<T>, keys: readonly K[]): MappedType<Omit<T, K>> {
  assertClass('OmitType', source);
  const omitted = propertyKeys('OmitType', source, keys);
  return createMappedClass<Omit<T, K>>(`Omit${source.name}`, [{ source, keep: (key) => !omitted.has(key) }]).cls;
}
