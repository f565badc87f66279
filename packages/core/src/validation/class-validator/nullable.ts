/**
 * `@Nullable()`: a property that must be present and may be `null` (RealWorld's `image`).
 * `@IsOptional()` cannot say it: it lets the property be left out too.
 */
import type { ValidationOptions } from 'class-validator';
import { classValidator } from '../libraries';

/** The condition `@Nullable()` registers: the property's other rules run unless it is `null`. */
function isNotNull(_object: object, value: unknown): boolean {
  return value !== null;
}

/** True for the condition `@Nullable()` registered (how `describe()` tells it from `@ValidateIf`). */
export function isNullableCondition(condition: unknown): boolean {
  return condition === isNotNull;
}

/**
 * Required, and may be `null`: `null` skips the property's other rules, a missing property is
 * refused ("… should not be null or undefined"), and the document lists it in `required` with
 * `'null'` among its types. The response filter writes `null` as `null`.
 *
 * @example
 * class Profile {
 *   @IsString() username!: string;
 *   @Nullable() @IsUrl() image!: string | null;   // {"image": null} passes, {} gets a 422
 * }
 */
export function Nullable(options?: ValidationOptions): PropertyDecorator {
  const { IsDefined, ValidateIf } = classValidator();
  const skipNull = ValidateIf(isNotNull, options);
  const defined = IsDefined(options);
  return (target, property) => {
    skipNull(target, property as string);
    defined(target, property as string);
  };
}
