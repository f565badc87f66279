/**
 * The shapes mapped types take and return. `MappedType` is not called `Type` (as in NestJS): DTO
 * files import class-transformer's `Type` decorator, and the two names would clash.
 */

/**
 * A class whose instances are `T`, abstract or not, whatever its constructor's parameters.
 *
 * @example
 * const source: ClassOf<CreateUser> = CreateUser;
 */
export type ClassOf<T> = abstract new (...args: never[]) => T;

/**
 * What `PartialType`, `PickType`, `OmitType` and `IntersectionType` return: a class to extend (or
 * to use as a model as is) whose instances are `T`.
 *
 * @example
 * const UpdateUserBase: MappedType<Partial<CreateUser>> = PartialType(CreateUser);
 * class UpdateUser extends UpdateUserBase {}
 */
export interface MappedType<T> {
  new (): T;
  readonly prototype: T;
}
