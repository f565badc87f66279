/**
 * `compileModel`: the per-route validator the framework builds at startup. Metadata is read once;
 * per request the native path does one pass to build the instance and one to validate it, with no
 * metadata lookups, no closures created and no error objects unless something fails.
 */
import { ensureCompiled } from './codegen';
import { compileFallback } from './fallback';
import { nativeReasons, planFor, reachablePlans } from './analyse';
import type { Run } from './plan';
import { NEEDS_FALLBACK, TOO_DEEP } from './signals';
import { plainObjectPlan } from './transform';
import {
  isObjectBody,
  notAnObjectIssue,
  notConvertibleIssue,
  resolveOptions,
  tooDeepIssue,
  type CompileOptions,
  type ModelValidator,
  type ValidationIssue,
  type ValidationResult,
} from './types';

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
export function compileModel<T extends object>(
  model: new (...args: any[]) => T,
  options?: CompileOptions,
): ModelValidator<T> {
  const resolved = resolveOptions(options);
  const fallback = compileFallback(model, resolved);
  const plan = planFor(model);
  const reasons = [...new Set(nativeReasons(plan))];
  if (reasons.length > 0) return describe(fallback, false, reasons);

  // Every class the model can reach is compiled now, so a request never pays for it.
  for (const reached of reachablePlans(plan)) ensureCompiled(reached);
  ensureCompiled(plainObjectPlan());
  const { whitelist, forbidNonWhitelisted, maxDepth } = resolved;
  const native = (input: unknown): ValidationResult<T> | Promise<ValidationResult<T>> => {
    if (!isObjectBody(input)) return failure([notAnObjectIssue()]);
    let value: T;
    try {
      value = plan.build!(input, 1, maxDepth);
    } catch (error) {
      if (error === TOO_DEEP) return failure([tooDeepIssue(maxDepth)]);
      if (error === NEEDS_FALLBACK) return fallback(input);
      // A constructor that throws: what the fallback reports when class-transformer throws.
      return failure([notConvertibleIssue(model.name)]);
    }
    const run: Run = { whitelist, forbidNonWhitelisted, maxDepth, issues: [] };
    try {
      plan.check!(value, '', undefined, -1, 1, run);
    } catch (error) {
      if (error === TOO_DEEP) return failure([tooDeepIssue(maxDepth)]);
      if (error === NEEDS_FALLBACK) return fallback(input);
      throw error; // a user condition threw: class-validator would throw too
    }
    return run.issues.length === 0 ? { ok: true, value } : failure(run.issues);
  };
  return describe(native, true, []);
}

function failure<T>(errors: ValidationIssue[]): ValidationResult<T> {
  return { ok: false, errors };
}

function describe<T>(
  fn: (input: unknown) => ValidationResult<T> | Promise<ValidationResult<T>>,
  native: boolean,
  fallbackReasons: string[],
): ModelValidator<T> {
  return Object.defineProperties(fn, {
    native: { value: native, enumerable: true },
    fallbackReasons: { value: Object.freeze(fallbackReasons), enumerable: true },
  }) as ModelValidator<T>;
}
