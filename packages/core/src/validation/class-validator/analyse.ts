/**
 * Compile time: turn one class's decorator metadata into a `ClassPlan`. Plans are cached per class
 * (a class's decorators are fixed once it is defined) and shared by every model and option set
 * that reaches the class; a plan records why it cannot run natively instead of throwing, so the
 * caller can fall back.
 */
import type { TypeMetadata } from 'class-transformer';
import { failureMessage } from './messages';
import {
  constraintsOf,
  groupByProperty,
  transformerFacts,
  validationMetadatas,
  validationTypes,
  type ValidationMeta,
} from './metadata';
import { PRESENT, type Check, type ClassPlan, type ModelInstance, type Condition, type NestedRule, type PropertyPlan, type RecordRule, type TypeSpec } from './plan';
import { isRecordRule } from './is-record';
import { recordSpecOf, type RecordValues } from './record';
import { constraintNamed } from './constraints';
import { classValidator } from '../libraries';
import { answerFalseOnThrow, definedBy, isBuiltIn, withHandlesFor, wrapperOf } from './builtins';

const plans = new WeakMap<Function, ClassPlan>();

/** The plan for `cls`, analysed on first use. Never throws: problems land in `unsupported`. */
export function planFor(cls: Function): ClassPlan {
  let plan = plans.get(cls);
  if (plan === undefined) {
    plan = {
      cls: cls as new () => ModelInstance,
      properties: [],
      known: new Set(),
      types: new Map(),
      readOnly: new Set(),
      keysIndependent: false,
      unsupported: [],
      refs: [],
    };
    // Cached before analysis so self-referencing models (trees) terminate.
    plans.set(cls, plan);
    analyse(plan);
  }
  return plan;
}

/**
 * Where untyped objects go: class-transformer copies them into a fresh `{}`. Analysed when the
 * first model is compiled, not when Tern loads: analysing reads class-validator's metadata,
 * which an app without models never loads.
 */
export function plainObjectPlan(): ClassPlan {
  return planFor(Object);
}

/** `plan` and every class its `@Type`s reach, plus the plain-object plan untyped values use. */
export function reachablePlans(plan: ClassPlan): Set<ClassPlan> {
  const seen = new Set<ClassPlan>([plainObjectPlan()]);
  const stack = [plan];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...next.refs);
  }
  return seen;
}

/** Every reason why `plan` or a class it reaches cannot run natively (empty: fully native). */
export function nativeReasons(plan: ClassPlan): string[] {
  plan.closureReasons ??= [...reachablePlans(plan)].flatMap((reached) => reached.unsupported);
  return plan.closureReasons;
}

function analyse(plan: ClassPlan): void {
  const { cls, unsupported } = plan;
  const name = cls.name || 'anonymous class';
  if (typeof cls !== 'function' || typeof cls.prototype !== 'object' || cls.prototype === null) {
    unsupported.push(`${name} is not a class`);
    return;
  }
  for (const key of Object.getOwnPropertyNames(cls.prototype)) {
    const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, key);
    if (descriptor && !descriptor.set) plan.readOnly.add(key);
  }
  const facts = transformerFacts(cls);
  for (const reason of facts.unsupported) unsupported.push(`${name}: ${reason}`);
  plan.keysIndependent = facts.unsupported.length === 0 && [...facts.types.values()].every((meta) => (meta.typeFunction?.length ?? 0) === 0);
  for (const [key, meta] of facts.types) {
    const spec = typeSpec(meta, `${name}.${key}`, unsupported);
    if (spec === undefined) continue;
    plan.types.set(key, spec);
    if (spec.kind === 'class') plan.refs.push(spec.plan);
  }
  const metas = validationMetadatas(cls);
  withHandlesFor(identityQuestions(metas), () => {
    for (const [key, group] of groupByProperty(metas)) {
      plan.known.add(key);
      const spec = plan.types.get(key);
      const expected = spec?.kind === 'class' ? spec.plan : undefined;
      const property = propertyPlan(key, group, expected, `${name}.${key}`, unsupported);
      if (property) plan.properties.push(property);
      // `@IsRecord`'s transform builds the record (its @Transform is not one the native path refuses).
      if (property?.record !== undefined) {
        plan.types.set(key, { kind: 'record', spec: property.record.spec, plan: property.record.plan });
        if (property.record.plan !== undefined) plan.refs.push(property.record.plan);
      }
    }
  });
}

/** The functions whose code `isBuiltIn` / `definedBy` will identify while analysing `metas`. */
function identityQuestions(metas: readonly ValidationMeta[]): Function[] {
  const out: Function[] = [];
  for (const meta of metas) {
    const condition = meta.constraints?.[0];
    if (meta.name === 'isOptional' && typeof condition === 'function') out.push(condition);
    const constraint = meta.constraintCls ? constraintsOf(meta)[0] : undefined;
    const wrapper = constraint && wrapperOf(constraint);
    if (wrapper) out.push(wrapper);
    // The exported decorator whose code a built-in's check must share (`IsEmail` for `isEmail`).
    const decorator = meta.name === undefined ? undefined : constraintNamed(meta.name)?.decorator;
    const exported = decorator && (classValidator() as unknown as Record<string, unknown>)[decorator];
    if (typeof exported === 'function') out.push(exported);
  }
  return out;
}

const CONVERSIONS = new Map<unknown, 'string' | 'number' | 'boolean' | 'date'>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Date, 'date'],
]);

function typeSpec(meta: TypeMetadata, where: string, unsupported: string[]): TypeSpec | undefined {
  const discriminator = meta.options?.discriminator;
  if (discriminator) unsupported.push(`${where}: @Type discriminator`);
  const reflected = meta.reflectedType;
  // class-transformer builds arrays of this declared type: only a plain Array (or a type it
  // replaces by one) gives the arrays the native path builds.
  if (reflected === Set || reflected === Map) unsupported.push(`${where}: declared as ${reflected.name}`);
  else if (typeof reflected === 'function' && reflected !== Array && reflected.prototype && 'push' in reflected.prototype) {
    unsupported.push(`${where}: declared as array-like ${reflected.name}`);
  }
  if (!meta.typeFunction) return specOf(reflected, where, unsupported);
  // A type function that reads its argument can pick a different class per value; the native
  // path resolves types once, so it only takes `() => Cls`.
  if (meta.typeFunction.length > 0) {
    unsupported.push(`${where}: @Type function depends on the value`);
    return undefined;
  }
  let target: unknown;
  try {
    target = meta.typeFunction();
  } catch (error) {
    unsupported.push(`${where}: @Type function threw (${String(error)})`);
    return undefined;
  }
  return specOf(target, where, unsupported);
}

function specOf(target: unknown, where: string, unsupported: string[]): TypeSpec | undefined {
  if (target === undefined || target === null) return undefined;
  const conversion = CONVERSIONS.get(target);
  if (conversion) return { kind: conversion };
  if (target === Buffer || target === Promise) {
    unsupported.push(`${where}: @Type(() => ${(target as Function).name})`);
    return undefined;
  }
  if (typeof target !== 'function') {
    unsupported.push(`${where}: @Type does not return a class`);
    return undefined;
  }
  return { kind: 'class', plan: planFor(target) };
}

function propertyPlan(
  key: string,
  metas: ValidationMeta[],
  expected: ClassPlan | undefined,
  where: string,
  unsupported: string[],
): PropertyPlan | undefined {
  const conditions: Condition[] = [];
  const defined: Check[] = [];
  const others: Check[] = [];
  let nested: NestedRule | undefined;
  let record: RecordRule | undefined;
  let nestedCount = 0;
  const kinds = validationTypes();
  for (const meta of metas) {
    if (meta.groups && meta.groups.length > 0) unsupported.push(`${where}: validation groups`);
    switch (meta.type) {
      case kinds.WHITELIST:
        break;
      case kinds.CONDITIONAL_VALIDATION:
        conditions.push(isOptionalCondition(meta) ? PRESENT : (meta.constraints[0] as Condition));
        break;
      case kinds.NESTED_VALIDATION:
        nestedCount++;
        nested = { message: (value) => failureMessage(meta, undefined, meta.target as Function, value), expected };
        break;
      case kinds.IS_DEFINED:
      case kinds.CUSTOM_VALIDATION: {
        if (isRecordRule(meta)) {
          if (record !== undefined) unsupported.push(`${where}: more than one @IsRecord`);
          record = recordRule(meta);
          break;
        }
        const check = compileCheck(meta, where, unsupported);
        if (check) (meta.type === kinds.IS_DEFINED ? defined : others).push(check);
        break;
      }
      default:
        unsupported.push(`${where}: ${meta.type} rule`);
    }
  }
  // class-validator would walk the nested value once per @ValidateNested.
  if (nestedCount > 1) unsupported.push(`${where}: more than one @ValidateNested`);
  const checks = [...defined, ...others];
  if (conditions.length === 0 && checks.length === 0 && nested === undefined && record === undefined) return undefined;
  const types = new Set(checks.map((c) => c.type));
  return { key, conditions, checks, nested, record, mergeByType: types.size !== checks.length };
}

/** `@IsRecord`'s rule, its values' type resolved now (a class named in it is declared by now). */
function recordRule(meta: ValidationMeta): RecordRule {
  const spec = recordSpecOf(meta.constraints[0] as () => RecordValues);
  const constraint = constraintsOf(meta)[0];
  return {
    spec,
    plan: spec.scalar === undefined ? planFor(spec.type) : undefined,
    validateIf: meta.validateIf,
    message: (object, value) => failureMessage(meta, constraint, object, value),
    custom: meta.message !== undefined && meta.message !== '',
  };
}

/**
 * class-validator's own `@IsOptional` is pure, so it is replaced by an inline test; any other
 * condition (a look-alike named so included) is kept and called as is.
 */
function isOptionalCondition(meta: ValidationMeta): boolean {
  const condition = meta.constraints?.[0];
  return meta.name === 'isOptional' && typeof condition === 'function' && definedBy(condition, 'IsOptional');
}

function compileCheck(meta: ValidationMeta, where: string, unsupported: string[]): Check | undefined {
  const constraints = constraintsOf(meta);
  const constraint = constraints[0];
  const name = constraint?.name;
  if (constraints.length !== 1 || constraint.async || !name || name !== meta.name) {
    unsupported.push(`${where}: custom constraint ${name ?? meta.name ?? meta.constraintCls?.name}`);
    return undefined;
  }
  const entry = constraintNamed(name);
  if (entry?.decorator === undefined || entry.check === undefined) {
    unsupported.push(`${where}: @${name} is not compiled natively`);
    return undefined;
  }
  // By the identity of its code, never by its name: a look-alike runs through class-validator.
  if (!isBuiltIn(constraint, entry.decorator)) {
    unsupported.push(`${where}: ${name} is not class-validator's @${entry.decorator}`);
    return undefined;
  }
  // The fallback runs class-validator's check itself; where it can throw, a throw must mean "invalid".
  if (entry.mayThrow) answerFalseOnThrow(constraint);
  const test = entry.check(meta.constraints ?? []);
  if (test === undefined) {
    unsupported.push(`${where}: @${name} with these arguments is not compiled natively`);
    return undefined;
  }
  return {
    type: name,
    test,
    each: !!meta.each,
    validateIf: meta.validateIf,
    message: (object, value) => failureMessage(meta, constraint, object, value),
    bounds: entry.bounds === true && !meta.each,
  };
}
