/**
 * The reference path: class-transformer's `plainToInstance` + class-validator's `validate`, used
 * for any model the compiler cannot run natively (custom constraints, async rules, groups,
 * @Transform…). Slower, but correct by definition: it is what the native path imitates.
 */
import { classTransformer, classTransformerStorage, classValidator } from '../libraries';
import { flattenErrors } from './flatten';
import { withRecordOptions } from './record';
import { transformerRecords } from './metadata';
import { PRESENT, type Check, type ClassPlan } from './plan';
import { dropUndefinedFields } from './unsent';
import type { ModelClass } from '../model-compiler';
import {
  isObjectBody,
  notAnObjectIssue,
  notConvertibleIssue,
  tooDeepIssue,
  tooManyKeysIssue,
  tooManyValuesIssue,
  type ResolvedOptions,
  type ValidationIssue,
  type ValidationResult,
} from '../types';

/**
 * What makes `input` too costly to hand to class-transformer: nesting deeper than `maxDepth`, an
 * object with more than `maxKeys` properties (class-transformer de-duplicates an object's keys
 * with `indexOf`, so its cost grows with the square of their number), or more than `maxValues`
 * values in all (each costs class-transformer and class-validator ~10 µs and hundreds of bytes).
 * One pass, no recursion; it stops at the first problem.
 */
export function shapeProblem(input: unknown, maxDepth: number, maxKeys: number, maxValues = Infinity): 'deep' | 'keys' | 'values' | undefined {
  const stack: Array<[unknown, number]> = [[input, 1]];
  // Counted as they are found, so a 300,000-element array is refused before it is walked.
  let values = 1;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > maxDepth) return 'deep';
    if (Array.isArray(value)) {
      if ((values += value.length) > maxValues) return 'values';
      for (const child of value) stack.push([child, depth + 1]);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > maxKeys) return 'keys';
    if ((values += keys.length) > maxValues) return 'values';
    for (const key of keys) stack.push([(value as Record<string, unknown>)[key], depth + 1]);
  }
  return undefined;
}

/** The size rules of one class that can be checked on the plain body, before class-transformer. */
interface SizeGate {
  /** Properties with size rules (`@ArrayMaxSize`…), by the key the body sends them under. */
  readonly rules: ReadonlyArray<{ readonly key: string; readonly checks: readonly Check[] }>;
  /** Properties whose `@Type` class (or one it reaches) has such rules. */
  readonly nested: ReadonlyArray<{ readonly key: string; readonly gate: SizeGate }>;
}

const gates = new WeakMap<ClassPlan, SizeGate | null>();

/**
 * The gate of `plan`, or null when nothing under it has a size rule to check. A property counts
 * only when the body's value reaches it unchanged: no `@Transform`, `@Expose` or `@Exclude` on
 * it and no class-level strategy (those can rename, reshape or drop it), and no `@ValidateIf`
 * (which reads the built instance). Its size rules are the non-`each` bounds checks without
 * `validateIf`. Built once per class, at startup.
 */
function sizeGateOf(plan: ClassPlan): SizeGate | null {
  if (gates.has(plan)) return gates.get(plan) as SizeGate | null;
  gates.set(plan, null); // a model that reaches itself (a tree) ends here while being built
  let records;
  try {
    records = transformerRecords(plan.cls);
  } catch {
    return null; // class-transformer's store has an unknown layout: no gate, the value bound still holds
  }
  if (classTransformerStorage().getStrategy(plan.cls) !== 'none') return null;
  const untouched = (key: string) => !records.transforms.has(key) && !records.exposes.has(key) && !records.excludes.has(key);
  const rules: Array<{ key: string; checks: Check[] }> = [];
  for (const property of plan.properties) {
    if (!untouched(property.key) || property.conditions.some((condition) => condition !== PRESENT)) continue;
    const checks = property.checks.filter((check) => check.bounds && !check.each && check.validateIf === undefined);
    if (checks.length > 0) rules.push({ key: property.key, checks });
  }
  const nested: Array<{ key: string; gate: SizeGate }> = [];
  for (const [key, spec] of plan.types) {
    if (spec.kind !== 'class' || !untouched(key)) continue;
    const gate = sizeGateOf(spec.plan);
    if (gate !== null) nested.push({ key, gate });
  }
  const gate = rules.length > 0 || nested.length > 0 ? { rules, nested } : null;
  gates.set(plan, gate);
  return gate;
}

/**
 * Checks the size rules on the plain body, as class-validator would on the instance, and walks
 * into nested models except through an array whose size rule failed: such an array is never
 * handed to class-transformer, which would build every element (and class-validator then walk
 * it) before the rule is even looked at. Answers the issues found (at most `maxIssues` listed).
 */
function sizeIssues(gate: SizeGate, body: Record<string, unknown>, maxIssues: number, maxDepth: number): { errors: ValidationIssue[]; omitted: number } {
  const found = { errors: [] as ValidationIssue[], omitted: 0 };
  // `depth` counts objects and arrays as shapeProblem does; past maxDepth it stops (the value
  // count may have ended shapeProblem's walk before it saw the whole body).
  const visit = (at: SizeGate, object: Record<string, unknown>, prefix: string, depth: number): void => {
    if (depth > maxDepth) return;
    const refused = new Set<string>();
    for (const { key, checks } of at.rules) {
      const value = Object.hasOwn(object, key) ? object[key] : undefined;
      if (!Array.isArray(value)) continue;
      for (const check of checks) {
        if (check.test(value)) continue;
        refused.add(key);
        if (found.errors.length < maxIssues) found.errors.push({ path: prefix + key, message: check.message(object, value) });
        else found.omitted++;
      }
    }
    for (const { key, gate } of at.nested) {
      const value = Object.hasOwn(object, key) && !refused.has(key) ? object[key] : undefined;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) if (isObjectBody(value[i])) visit(gate, value[i] as Record<string, unknown>, `${prefix}${key}.${i}.`, depth + 2);
      } else if (isObjectBody(value)) {
        visit(gate, value, `${prefix}${key}.`, depth + 1);
      }
    }
  };
  visit(gate, body, '', 1);
  return found;
}

/** What the fallback may rely on about the model (from its compiled plan). */
export interface FallbackFacts {
  /**
   * The properties `whitelist` keeps, when class-transformer's result for them cannot depend on
   * any other key of the body (no `@Transform`, `@Expose`, value-dependent `@Type`): the others
   * are dropped before class-transformer sees the body. `undefined`: hand it the whole body.
   */
  readonly keep: ReadonlySet<string> | undefined;
  /** The model's plan: its size rules are checked on the body before class-transformer runs. */
  readonly plan?: ClassPlan;
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
  const gate = facts.plan === undefined ? null : sizeGateOf(facts.plan);
  return async (input) => {
    if (!isObjectBody(input)) return { ok: false, errors: [notAnObjectIssue()] };
    const problem = shapeProblem(input, options.maxDepth, options.maxKeys, options.maxFallbackValues);
    if (problem === 'deep') return { ok: false, errors: [tooDeepIssue(options.maxDepth)] };
    if (problem === 'keys') return { ok: false, errors: [tooManyKeysIssue(options.maxKeys)] };
    // A failed size rule says more than the value count (`@ArrayMaxSize(1000)` on 300,000 items).
    if (gate !== null) {
      const sized = sizeIssues(gate, input, options.maxIssues, options.maxDepth);
      if (sized.errors.length > 0 || sized.omitted > 0) {
        return sized.omitted > 0 ? { ok: false, errors: sized.errors, omitted: sized.omitted } : { ok: false, errors: sized.errors };
      }
    }
    if (problem === 'values') return { ok: false, errors: [tooManyValuesIssue(options.maxFallbackValues)] };
    let instance: T;
    try {
      instance = plainToInstance(model, keep === undefined ? input : declaredOnly(input, keep));
    } catch {
      // class-transformer throws on some inputs (an own `constructor` key in an untyped nested
      // object); that is a malformed body, not a server fault.
      return { ok: false, errors: [notConvertibleIssue(model.name)] };
    }
    dropUndefinedFields(instance); // ES2022 class fields the body did not send (unsent.ts)
    const errors = await withRecordOptions(options, () => validate(instance, validatorOptions));
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
