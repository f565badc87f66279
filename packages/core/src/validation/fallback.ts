/**
 * The reference path: class-transformer's `plainToInstance` + class-validator's `validate`, used
 * for any model the compiler cannot run natively (custom constraints, async rules, groups,
 * @Transform…). Slower, but correct by definition: it is what the native path imitates.
 */
import type { ValidationError } from 'class-validator';
import { classTransformer, classValidator } from './libraries';
import { dropUndefinedFields } from './unsent';
import {
  isObjectBody,
  notAnObjectIssue,
  notConvertibleIssue,
  tooDeepIssue,
  type ResolvedOptions,
  type ValidationIssue,
  type ValidationResult,
} from './types';

/** class-validator's error tree as dotted-path issues: constraints of a node, then its children. */
export function flattenErrors(errors: readonly ValidationError[], prefix = '', out: ValidationIssue[] = []): ValidationIssue[] {
  for (const error of errors) {
    const path = prefix + error.property;
    for (const message of Object.values(error.constraints ?? {})) out.push({ path, message });
    if (error.children && error.children.length > 0) flattenErrors(error.children, `${path}.`, out);
  }
  return out;
}

/** Nesting level of the deepest object or array in `input` (a scalar is 0), without recursion. */
export function nestingDepth(input: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[input, 1]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest > limit) return deepest; // enough to refuse; stop walking
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Validates through class-transformer + class-validator; always answers with a Promise. */
export function compileFallback<T extends object>(
  model: new (...args: any[]) => T,
  options: ResolvedOptions,
): (input: unknown) => Promise<ValidationResult<T>> {
  const { plainToInstance } = classTransformer();
  const { validate } = classValidator();
  const validatorOptions = {
    whitelist: options.whitelist,
    forbidNonWhitelisted: options.forbidNonWhitelisted,
    forbidUnknownValues: false,
  };
  return async (input) => {
    if (!isObjectBody(input)) return { ok: false, errors: [notAnObjectIssue()] };
    if (nestingDepth(input, options.maxDepth) > options.maxDepth) return { ok: false, errors: [tooDeepIssue(options.maxDepth)] };
    let instance: T;
    try {
      instance = plainToInstance(model, input);
    } catch {
      // class-transformer throws on some inputs (an own `constructor` key in an untyped nested
      // object); that is a malformed body, not a server fault.
      return { ok: false, errors: [notConvertibleIssue(model.name)] };
    }
    dropUndefinedFields(instance); // ES2022 class fields the body did not send (unsent.ts)
    const errors = await validate(instance, validatorOptions);
    return errors.length > 0 ? { ok: false, errors: flattenErrors(errors) } : { ok: true, value: instance };
  };
}
