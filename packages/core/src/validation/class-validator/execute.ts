/**
 * Per request, step 2: validate the built instance the way class-validator's `ValidationExecutor`
 * does for `validate(instance, { whitelist, forbidNonWhitelisted, forbidUnknownValues: false })`,
 * writing its error tree directly as a flat list: a property's failed constraints in
 * class-validator's order, then its nested issues. `codegen.ts` generates the common case per
 * class; the functions here are the shared pieces (and the whole step without code generation).
 * Other classes' checks are reached through `run.resolve`, never by importing the engine.
 */
import { nativeReasons, planFor } from './analyse';
import { addIssue, listsMore, prefixOf, type Check, type CheckFn, type ClassPlan, type ModelInstance, type NestedRule, type PropertyPlan, type RecordRule, type Run } from './plan';
import { checkRecordValues } from './record';
import { NEEDS_FALLBACK, TOO_DEEP } from './signals';
import { isObjectBody } from '../types';

/** The general check: the same steps as the generated one, driven by the plan's data. */
export function interpretCheck(plan: ClassPlan): CheckFn {
  return (instance, base, key, index, depth, run) => {
    if (depth > run.maxDepth) throw TOO_DEEP;
    const object = instance as ModelInstance;
    if (run.whitelist) {
      for (const name of Object.keys(object)) if (!plan.known.has(name)) stripKey(object, name, base, key, index, run);
    }
    const prefix = prefixOf(base, key, index);
    for (const property of plan.properties) validateProperty(property, object, prefix, depth, run);
  };
}

/** `whitelist` for one undeclared property: report it (`forbidNonWhitelisted`) or delete it. */
export function stripKey(object: ModelInstance, name: string, base: string, key: string | undefined, index: number, run: Run): void {
  if (run.forbidNonWhitelisted) {
    if (listsMore(run)) addIssue(run, prefixOf(base, key, index) + name, `property ${name} should not exist`);
    else run.omitted++;
  } else {
    delete object[name];
  }
}

function validateProperty(property: PropertyPlan, object: ModelInstance, prefix: string, depth: number, run: Run): void {
  const value = object[property.key];
  // class-validator evaluates every condition, then skips the property unless all held.
  let proceed: unknown = true;
  for (const condition of property.conditions) {
    const verdict = condition(object, value);
    proceed = proceed && verdict;
  }
  if (!proceed) return;
  const path = prefix + property.key;
  let outOfBounds = false;
  if (property.mergeByType) outOfBounds = checkMerging(property, object, value, path, run);
  else {
    for (const check of property.checks) {
      if (check.validateIf !== undefined && !check.validateIf(object, value)) continue;
      if (!(check.each ? passesEach(check.test, value) : check.test(value))) {
        if (check.bounds) outOfBounds = true;
        if (listsMore(run)) addIssue(run, path, check.message(object, value));
        else run.omitted++;
      }
    }
  }
  // An array whose size rule failed is not walked: its elements could add 500,000 issues.
  if (property.nested !== undefined && value !== undefined && !outOfBounds) {
    validateNested(property.nested, value, prefix, property.key, depth + 1, run);
  }
  if (property.record !== undefined) checkRecord(property.record, object, value, prefix, property.key, depth + 1, run);
}

/**
 * `@IsRecord` on `value`, found at `base` + `key` at nesting level `depth`: an object whose
 * values `record.ts` checks key by key, each model value validated by its class's rules.
 */
export function checkRecord(rule: RecordRule, object: ModelInstance, value: unknown, base: string, key: string, depth: number, run: Run): void {
  if (rule.validateIf !== undefined && !rule.validateIf(object, value)) return;
  const path = base + key;
  if (!isObjectBody(value)) {
    if (listsMore(run)) addIssue(run, path, rule.message(object, value));
    else run.omitted++;
    return;
  }
  if (depth > run.maxDepth) throw TOO_DEEP;
  const plan = rule.plan;
  const check = plan === undefined ? undefined : run.resolve(plan).check;
  checkRecordValues(
    rule.spec,
    value,
    (issue) => {
      if (listsMore(run)) addIssue(run, `${path}.${issue.path}`, issue.message);
      else run.omitted++;
    },
    (instance, at, nesting) => {
      // The build made every model value an instance of the class; anything else is the fallback's.
      if (check === undefined || instance.constructor !== plan!.cls) throw NEEDS_FALLBACK;
      check(instance, `${path}.`, at, -1, depth + nesting, run);
    },
    rule.custom ? rule.message(object, value) : undefined,
  );
}

/**
 * The checks of a property with two checks of one type (two `@Matches`, say): class-validator
 * keys failures by type, so a later failure overwrites the earlier message in its place.
 * Answers whether a size rule failed (see `Check.bounds`).
 */
export function checkMerging(property: PropertyPlan, object: ModelInstance, value: unknown, path: string, run: Run): boolean {
  const messages: string[] = [];
  const types: string[] = [];
  let outOfBounds = false;
  for (const check of property.checks) {
    if (check.validateIf !== undefined && !check.validateIf(object, value)) continue;
    if (check.each ? passesEach(check.test, value) : check.test(value)) continue;
    if (check.bounds) outOfBounds = true;
    const message = check.message(object, value);
    const earlier = types.indexOf(check.type);
    if (earlier >= 0) messages[earlier] = message;
    else {
      types.push(check.type);
      messages.push(message);
    }
  }
  for (const message of messages) addIssue(run, path, message);
  return outOfBounds;
}

/** `each: true`: arrays, Sets and Maps (their values) element by element; anything else whole. */
export function passesEach(test: Check['test'], value: unknown): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (i in value && !test(value[i])) return false;
    return true;
  }
  if (value instanceof Set || value instanceof Map) return Array.from(value.values()).every(test);
  return test(value);
}

/**
 * class-validator's `nestedValidations` for `value`, found at `base` + `key`: arrays (Sets, Maps)
 * element by element, objects by the rules of their runtime class, anything else is an issue.
 */
export function validateNested(rule: NestedRule, value: unknown, base: string, key: string, depth: number, run: Run): void {
  if (value === undefined) return;
  if (depth > run.maxDepth) throw TOO_DEEP;
  const expected = rule.expected;
  // The common cases first: an instance of the property's @Type class, or an array of them.
  if (expected !== undefined && isInstance(value, expected)) {
    run.resolve(expected).check(value, base, key, -1, depth, run);
  } else if (Array.isArray(value)) {
    const check = expected === undefined ? undefined : run.resolve(expected).check;
    for (let i = 0; i < value.length; i++) {
      const element = value[i];
      if (check !== undefined && isInstance(element, expected!)) check(element, base, key, i, depth + 1, run);
      else validateNested(rule, element, `${base}${key}.`, String(i), depth + 1, run);
    }
  } else if (value instanceof Set) {
    let i = 0;
    for (const element of value) validateNested(rule, element, `${base}${key}.`, String(i++), depth + 1, run);
  } else if (value instanceof Map) {
    for (const [name, element] of value) validateNested(rule, element, `${base}${key}.`, String(name), depth + 1, run);
  } else if (value instanceof Object) {
    // class-validator picks the rules by the value's runtime class, not the declared one.
    run.resolve(runtimePlan(value.constructor)).check(value, base, key, -1, depth, run);
  } else if (listsMore(run)) {
    addIssue(run, base + key, rule.message(value));
  } else {
    run.omitted++;
  }
}

function isInstance(value: unknown, plan: ClassPlan): value is object {
  return typeof value === 'object' && value !== null && value.constructor === plan.cls && !Array.isArray(value);
}

/** A class met only at runtime (a constructor default, say): compiled now, or the fallback. */
function runtimePlan(ctor: unknown): ClassPlan {
  if (typeof ctor !== 'function') throw NEEDS_FALLBACK;
  const plan = planFor(ctor);
  if (nativeReasons(plan).length > 0) throw NEEDS_FALLBACK;
  return plan;
}
