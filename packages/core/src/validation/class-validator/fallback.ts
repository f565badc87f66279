/**
 * The reference path: class-transformer's `plainToInstance` + class-validator's `validate`, used
 * for any model the compiler cannot run natively (custom constraints, async rules, groups,
 * @Transform…). Slower, but correct by definition: it is what the native path imitates.
 */
import type { ValidationError } from 'class-validator';
import { classTransformer, classValidator } from '../libraries';
import { dropUndefinedFields } from './unsent';
import type { ModelClass } from '../model-compiler';
import {
  isObjectBody,
  notAnObjectIssue,
  notConvertibleIssue,
  tooDeepIssue,
  tooManyKeysIssue,
  type ResolvedOptions,
  type ValidationIssue,
  type ValidationResult,
} from '../types';

/**
 * class-validator's error tree as dotted-path issues: constraints of a node, then its children.
 * At most `maxIssues` are listed; the others are counted.
 */
export function flattenErrors(errors: readonly ValidationError[], maxIssues: number): { errors: ValidationIssue[]; omitted: number } {
  const out: ValidationIssue[] = [];
  let omitted = 0;
  const walk = (nodes: readonly ValidationError[], prefix: string): void => {
    for (const error of nodes) {
      const path = prefix + error.property;
      for (const message of Object.values(error.constraints ?? {})) {
        if (out.length < maxIssues) out.push({ path, message });
        else omitted++;
      }
      if (error.children && error.children.length > 0) walk(error.children, `${path}.`);
    }
  };
  walk(errors, '');
  return { errors: out, omitted };
}

/**
 * What makes `input` too costly to hand to class-transformer: nesting deeper than `maxDepth`, or
 * an object with more than `maxKeys` properties (class-transformer de-duplicates an object's keys
 * with `indexOf`, so its cost grows with the square of their number). One pass, no recursion.
 */
export function shapeProblem(input: unknown, maxDepth: number, maxKeys: number): 'deep' | 'keys' | undefined {
  const stack: Array<[unknown, number]> = [[input, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) return 'deep';
    if (Array.isArray(value)) {
      for (const child of value) stack.push([child, depth + 1]);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > maxKeys) return 'keys';
    for (const key of keys) stack.push([(value as Record<string, unknown>)[key], depth + 1]);
  }
  return undefined;
}

/** What the fallback may rely on about the model (from its compiled plan). */
export interface FallbackFacts {
  /**
   * The properties `whitelist` keeps, when class-transformer's result for them cannot depend on
   * any other key of the body (no `@Transform`, `@Expose`, value-dependent `@Type`): the others
   * are dropped before class-transformer sees the body. `undefined`: hand it the whole body.
   */
  readonly keep: ReadonlySet<string> | undefined;
}

/** Validates through class-transformer + class-validator; always answers with a Promise. */
export function compileFallback<T extends object>(
  model: ModelClass<T>,
  options: ResolvedOptions,
  facts: FallbackFacts,
): (input: unknown) => Promise<ValidationResult<T>> {
  const { plainToInstance } = classTransformer();
  const { validate } = classValidator();
  const validatorOptions = {
    whitelist: options.whitelist,
    forbidNonWhitelisted: options.forbidNonWhitelisted,
    forbidUnknownValues: false,
  };
  // Dropping keys is what `whitelist` does anyway; with `forbidNonWhitelisted` they must be reported.
  const keep = options.whitelist && !options.forbidNonWhitelisted ? facts.keep : undefined;
  return async (input) => {
    if (!isObjectBody(input)) return { ok: false, errors: [notAnObjectIssue()] };
    const problem = shapeProblem(input, options.maxDepth, options.maxKeys);
    if (problem === 'deep') return { ok: false, errors: [tooDeepIssue(options.maxDepth)] };
    if (problem === 'keys') return { ok: false, errors: [tooManyKeysIssue(options.maxKeys)] };
    let instance: T;
    try {
      instance = plainToInstance(model, keep === undefined ? input : declaredOnly(input, keep));
    } catch {
      // class-transformer throws on some inputs (an own `constructor` key in an untyped nested
      // object); that is a malformed body, not a server fault.
      return { ok: false, errors: [notConvertibleIssue(model.name)] };
    }
    dropUndefinedFields(instance); // ES2022 class fields the body did not send (unsent.ts)
    const errors = await validate(instance, validatorOptions);
    if (errors.length === 0) return { ok: true, value: instance };
    const flat = flattenErrors(errors, options.maxIssues);
    return flat.omitted > 0 ? { ok: false, errors: flat.errors, omitted: flat.omitted } : { ok: false, errors: flat.errors };
  };
}

/** A copy of `input` with only the `keep` keys, in input order. */
function declaredOnly(input: Record<string, unknown>, keep: ReadonlySet<string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(input)) if (keep.has(key)) out[key] = input[key];
  return out;
}
