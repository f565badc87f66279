/**
 * One model's validator, as the class-validator compiler builds it at startup. Metadata is read
 * once; per request the native path does one pass to build the instance and one to validate it,
 * with no metadata lookups, no closures created and no error objects unless something fails.
 */
import type { ModelClass } from '../model-compiler';
import {
  isObjectBody,
  notAnObjectIssue,
  notConvertibleIssue,
  resolveOptions,
  tooDeepIssue,
  tooManyKeysIssue,
  type CompileOptions,
  type ModelValidator,
  type ValidationIssue,
  type ValidationResult,
} from '../types';
import { nativeReasons, planFor, reachablePlans } from './analyse';
import type { Engine } from './engine';
import { compileFallback } from './fallback';
import type { BuildContext, Run } from './plan';
import { NEEDS_FALLBACK, TOO_DEEP, TOO_MANY_KEYS } from './signals';

/**
 * The validator of `model` on `engine`: native when every rule the model reaches is, else
 * class-transformer + class-validator (see `README.md` for what runs where).
 */
export function compileValidator<T extends object>(model: ModelClass<T>, options: CompileOptions | undefined, engine: Engine): ModelValidator<T> {
  const resolved = resolveOptions(options);
  const plan = planFor(model);
  const fallback = compileFallback(model, resolved, { keep: plan.keysIndependent ? plan.known : undefined, plan });
  const reasons = [...new Set(nativeReasons(plan))];
  if (reasons.length > 0) return withFacts(fallback, false, reasons);

  // Every class the model can reach (the plain-object plan included) is compiled now, so a
  // request never pays for it.
  for (const reached of reachablePlans(plan)) engine.ensureCompiled(reached);
  const { build, check } = engine.ensureCompiled(plan);
  const { whitelist, forbidNonWhitelisted, maxDepth, maxIssues, maxKeys } = resolved;
  const resolve = engine.ensureCompiled;
  const cx: BuildContext = { maxDepth, maxKeys, resolve };
  const native = (input: unknown): ValidationResult<T> | Promise<ValidationResult<T>> => {
    if (!isObjectBody(input)) return failure([notAnObjectIssue()]);
    let value: T;
    try {
      value = build(input, 1, cx) as T;
    } catch (error) {
      if (error === TOO_DEEP) return failure([tooDeepIssue(maxDepth)]);
      if (error === TOO_MANY_KEYS) return failure([tooManyKeysIssue(maxKeys)]);
      if (error === NEEDS_FALLBACK) return fallback(input);
      // NOT_CONVERTIBLE, or a constructor that throws: what the fallback reports when
      // class-transformer throws.
      return failure([notConvertibleIssue(model.name)]);
    }
    const run: Run = { whitelist, forbidNonWhitelisted, maxDepth, resolve, issues: [], maxIssues, omitted: 0 };
    try {
      check(value, '', undefined, -1, 1, run);
    } catch (error) {
      if (error === TOO_DEEP) return failure([tooDeepIssue(maxDepth)]);
      if (error === NEEDS_FALLBACK) return fallback(input);
      throw error; // a user condition threw: class-validator would throw too
    }
    if (run.issues.length === 0) return { ok: true, value };
    return run.omitted > 0 ? { ok: false, errors: run.issues, omitted: run.omitted } : failure(run.issues);
  };
  return withFacts(native, true, []);
}

function failure<T>(errors: ValidationIssue[]): ValidationResult<T> {
  return { ok: false, errors };
}

function withFacts<T>(
  fn: (input: unknown) => ValidationResult<T> | Promise<ValidationResult<T>>,
  native: boolean,
  fallbackReasons: string[],
): ModelValidator<T> {
  return Object.defineProperties(fn, {
    native: { value: native, enumerable: true },
    fallbackReasons: { value: Object.freeze(fallbackReasons), enumerable: true },
  }) as ModelValidator<T>;
}
