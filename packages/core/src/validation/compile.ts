/**
 * `compileModel`: the validator of one model from the default compiler. Kept for the callers
 * that predate `ModelCompiler` (an app option will let them use another compiler).
 */
import { defaultModelCompiler } from './class-validator/compiler';
import type { ModelClass } from './model-compiler';
import type { CompileOptions, ModelValidator } from './types';

/**
 * Compiles a class-validator model into a function that validates parsed JSON against it.
 *
 * The result matches `plainToInstance(model, input)` followed by class-validator's
 * `validate(instance, { whitelist, forbidNonWhitelisted, forbidUnknownValues: false })`: the same
 * instance (prototype, nested `@Type` classes, undeclared properties stripped) and the same
 * messages, flattened to dotted paths. Common decorators run natively and synchronously; a model
 * using anything else is validated by class-transformer + class-validator and answers with a
 * Promise. A body that is not a plain object (null, an array, a scalar) is refused, never thrown.
 *
 * @example
 * class CreateUser {
 *   @IsString() @Length(1, 50) name!: string;
 *   @IsInt() @Min(0) age!: number;
 * }
 * const validateUser = compileModel(CreateUser);          // once, at startup
 * const result = await validateUser({ name: 'Ada', age: -1 });
 * // { ok: false, errors: [{ path: 'age', message: 'age must not be less than 0' }] }
 * validateUser.native;                                    // true: no class-validator per request
 */
export function compileModel<T extends object>(model: ModelClass<T>, options?: CompileOptions): ModelValidator<T> {
  return defaultModelCompiler.compile(model, options);
}
