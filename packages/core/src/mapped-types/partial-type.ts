import { classValidator } from '../validation/libraries';
import { validationTypes, type ValidationMeta } from '../validation/class-validator/metadata';
import { assertClass, createMappedClass } from './inherit';
import type { ClassOf, MappedType } from './types';

/**
 * How `PartialType` makes properties optional.
 *
 * @example
 * class PatchUser extends PartialType(CreateUser, { skipNullProperties: false }) {}
 */
export interface PartialTypeOptions {
  /**
   * `true` (default): a property that is missing, `undefined` or `null` skips its rules, as
   * `@IsOptional()` does. `false`: only a missing or `undefined` property skips them, so `null` is
   * checked against the rules (and refused by `@IsString()` and the like).
   */
  skipNullProperties?: boolean;
}

/**
 * A class with every property of `source`, each optional: its class-validator rules apply only
 * when the client sends the property (`@IsOptional()` semantics). class-transformer metadata
 * (`@Type`, `@Expose`, `@Exclude`, `@Transform`), defaults such as `page = 1` and the OpenAPI
 * schema (no property required) are carried over. Properties the client does not send are not
 * set on the instance, so `Object.assign(entity, dto)` only changes what was sent.
 *
 * @example
 * class CreateUser {
 *   @IsString() @Length(1, 50) name!: string;
 *   @IsEmail() email!: string;
 * }
 * class UpdateUser extends PartialType(CreateUser) {}
 *
 * app.patch('/users/{id:int}', { requestModel: UpdateUser }, async (req, _res, { id }) => {
 *   const changes = req.body as UpdateUser; // { name?: string; email?: string }
 *   return Object.assign(users.get(id), changes);
 * });
 */
export function PartialType<T>(source: ClassOf<T>, options: PartialTypeOptions = {}): MappedType<Partial<T>> {
  assertClass('PartialType', source);
  const { cls, rules } = createMappedClass<Partial<T>>(`Partial${source.name}`, [{ source, keep: () => true }]);
  const skipNull = options.skipNullProperties ?? true;
  const { IsOptional, ValidateIf } = classValidator();
  for (const [key, metas] of rules) {
    if (isOptionalAlready(metas)) continue;
    const optional = skipNull ? IsOptional() : ValidateIf(isNotUndefined);
    optional(cls.prototype as object, key);
  }
  return cls;
}

function isNotUndefined(_object: object, value: unknown): boolean {
  return value !== undefined;
}

/** Already `@IsOptional()`: a second one would change nothing but the metadata. */
function isOptionalAlready(metas: readonly ValidationMeta[]): boolean {
  const { CONDITIONAL_VALIDATION } = validationTypes();
  return metas.some((meta) => meta.type === CONDITIONAL_VALIDATION && meta.name === 'isOptional');
}
