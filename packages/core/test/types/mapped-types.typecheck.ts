/**
 * Compile-time checks for mapped types, run by `tsc -p tsconfig.test.json` as part of `npm test`:
 * each `@ts-expect-error` line must be an error, and every other line must compile.
 */
import { IntersectionType } from '../../src/mapped-types/intersection-type';
import { OmitType } from '../../src/mapped-types/omit-type';
import { PartialType } from '../../src/mapped-types/partial-type';
import { PickType } from '../../src/mapped-types/pick-type';
import type { MappedType } from '../../src/mapped-types/types';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

class CreateUser {
  name!: string;
  age!: number;
  tags: string[] = [];
}
class Address {
  city!: string;
}
abstract class Entity {
  id!: number;
  constructor(readonly kind: string) {}
}

class UpdateUser extends PartialType(CreateUser) {}
class Login extends PickType(CreateUser, ['name', 'age']) {}
class NameOnly extends PickType(CreateUser, ['name'] as const) {}
class NoTags extends OmitType(CreateUser, ['tags']) {}
class Located extends IntersectionType(CreateUser, Address) {}
class Three extends IntersectionType(CreateUser, Address, PickType(Entity, ['id'])) {}

assert<Equal<Pick<UpdateUser, keyof UpdateUser>, { name?: string; age?: number; tags?: string[] }>>();
assert<Equal<Pick<Login, keyof Login>, { name: string; age: number }>>();
assert<Equal<Pick<NameOnly, keyof NameOnly>, { name: string }>>();
assert<Equal<Pick<NoTags, keyof NoTags>, { name: string; age: number }>>();
assert<Equal<Pick<Located, keyof Located>, { name: string; age: number; tags: string[]; city: string }>>();
assert<Equal<Pick<Three, keyof Three>, { name: string; age: number; tags: string[]; city: string; id: number }>>();

// Abstract classes and classes whose constructor takes arguments are sources too.
const partialEntity: MappedType<Partial<Entity>> = PartialType(Entity);
const update = new UpdateUser();
const name: string | undefined = update.name;
void [partialEntity, name];

// @ts-expect-error not a property of CreateUser
PickType(CreateUser, ['nmae']);
// @ts-expect-error not a property of CreateUser
OmitType(CreateUser, ['email']);
// @ts-expect-error the picked class has no `age`
void new NameOnly().age;
// @ts-expect-error optional after PartialType
const required: string = update.name;
void required;
// @ts-expect-error at least one class
IntersectionType();
