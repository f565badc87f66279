import { TernError } from '../errors/tern-error';
import { assertClass, createMappedClass } from './inherit';
import type { ClassOf, MappedType } from './types';

type InstanceOf<C> = C extends ClassOf<infer I> ? I : never;
/** `A | B` → `A & B` (a union in a parameter position is inferred as an intersection). */
type AllOf<U> = (U extends unknown ? (value: U) => void : never) extends (value: infer I) => void ? I : never;

/**
 * The instances of `IntersectionType(A, B, ...)`: `A & B & ...`.
 *
 * @example
 * const Both: MappedType<IntersectionOf<[typeof A, typeof B]>> = IntersectionType(A, B);
 */
export type IntersectionOf<Classes extends readonly ClassOf<object>[]> = AllOf<InstanceOf<Classes[number]>>;

/**
 * A class with every property of every class given: the rules of all of them apply (a property
 * declared in two classes must pass both sets of rules). Where two classes disagree on something
 * single-valued (a `@Type`, a default, the declared type), the class listed later wins.
 *
 * @example
 * class CreateUser {
 *   @IsString() name!: string;
 * }
 * class Address {
 *   @IsString() city!: string;
 * }
 * class CreateUserWithAddress extends IntersectionType(CreateUser, Address) {}
 * // a body needs `name` and `city`
 */
export function IntersectionType<Classes extends readonly [ClassOf<object>, ...ClassOf<object>[]]>(
  ...classes: Classes
): MappedType<IntersectionOf<Classes>> {
  if (classes.length === 0) throw new TernError('TERN_INVALID_MAPPED_TYPE', 'IntersectionType() needs at least one class');
  for (const source of classes) assertClass('IntersectionType', source);
  const name = `Intersection${classes.map((source) => source.name).join('')}`;
  return createMappedClass<IntersectionOf<Classes>>(name, classes.map((source) => ({ source, keep: () => true }))).cls;
}
