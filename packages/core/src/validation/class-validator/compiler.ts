/**
 * The default `ModelCompiler`: class-validator models (with class-transformer's `@Type`),
 * compiled to native functions where every rule is understood, validated by the two libraries
 * themselves otherwise.
 */
import type { ModelClass, ModelCompiler, ModelDescription } from '../model-compiler';
import type { CompileOptions, ModelValidator } from '../types';
import { describeModel } from './describe';
import { Engine } from './engine';
import { compileValidator } from './validator';

/**
 * How the class-validator compiler runs models.
 *
 * @example
 * const options: ClassValidatorCompilerOptions = { codegen: false };
 */
export interface ClassValidatorCompilerOptions {
  /**
   * Generate one function per class for the native path (default `true`). `false` runs the same
   * steps interpreted from the compiled plan (slower; what happens anyway where the process
   * forbids code generation): tests use it to check both engines.
   */
  codegen?: boolean;
}

/**
 * A `ModelCompiler` for class-validator models. Compiled validators of one compiler share the
 * per-class functions it made; two compilers share only what the decorators say.
 *
 * @example
 * const interpreted = createClassValidatorCompiler({ codegen: false });
 * const validateUser = interpreted.compile(CreateUser);
 * const result = await validateUser({ name: 'Ada', age: 36 }); // { ok: true, value: CreateUser {...} }
 */
export function createClassValidatorCompiler(options: ClassValidatorCompilerOptions = {}): ModelCompiler {
  const engine = new Engine(options.codegen ?? true);
  return {
    compile<T extends object>(model: ModelClass<T>, compileOptions?: CompileOptions): ModelValidator<T> {
      return compileValidator(model, compileOptions, engine);
    },
    describe(model: ModelClass): ModelDescription {
      return describeModel(model);
    },
  };
}

/**
 * The compiler Tern uses unless an app names another: class-validator with code generation.
 * `compile(model)` matches `plainToInstance(model, input)` followed by class-validator's
 * `validate(instance, { whitelist, forbidNonWhitelisted, forbidUnknownValues: false })`: the same
 * instance (prototype, nested `@Type` classes, undeclared properties stripped) and the same
 * messages, flattened to dotted paths. Common decorators run natively and synchronously; a model
 * using anything else is validated by class-transformer + class-validator and answers with a
 * Promise. A body that is not a plain object (null, an array, a scalar) is refused, never thrown.
 *
 * @example
 * const validateUser = defaultModelCompiler.compile(CreateUser);  // once, at startup
 * const result = await validateUser({ name: 'Ada', age: -1 });
 * // { ok: false, errors: [{ path: 'age', message: 'age must not be less than 0' }] }
 * validateUser.native;                                            // true: no class-validator per request
 * defaultModelCompiler.describe(CreateUser).properties.map((p) => p.name); // ['name', 'age']
 */
export const defaultModelCompiler: ModelCompiler = createClassValidatorCompiler();
