/**
 * The query-string fields whose conversion would differ between compilers. A `@Query()` model
 * converts each value by the type TypeScript emitted for its property (`design:type`); tsx,
 * esbuild and vitest emit none, and a union (`number | null`) emits `Object`, so `'2'` would stay
 * a string and fail `@IsInt()` with a 422 that tsc never shows. Found at startup instead.
 */
import type { PropertyDescription } from '../validation/model-compiler';

/** The class-validator rules that only pass for a converted value, and the type that converts it. */
const RULE_TYPES: ReadonlyMap<string, NumberConstructor | BooleanConstructor | DateConstructor> = new Map<string, NumberConstructor | BooleanConstructor | DateConstructor>([
  ...['isInt', 'isNumber', 'min', 'max', 'isPositive', 'isNegative', 'isDivisibleBy'].map((name) => [name, Number] as const),
  ['isBoolean', Boolean],
  ...['isDate', 'minDate', 'maxDate'].map((name) => [name, Date] as const),
]);

/**
 * What a field is missing: the rule that needs a converted value and the `@Type` that gives it,
 * or undefined when the field converts (its type was emitted, or `@Type` names a scalar) or no
 * rule needs it.
 *
 * @example
 * untypedQueryField(property, undefined); // { rule: 'isInt', type: 'Number' } for `@IsInt() page`
 */
export function untypedQueryField(property: PropertyDescription, emitted: Function | undefined): { rule: string; type: string } | undefined {
  if (emitted !== undefined && emitted !== Object) return undefined;
  if (property.declaredType === Number || property.declaredType === Boolean || property.declaredType === Date) return undefined;
  const needing = property.rules.filter((rule) => !rule.each && rule.appliesTo === 'value' && RULE_TYPES.has(rule.name));
  // Name the rule that says what the value is (@IsInt) over a bound (@Min) when both are there.
  const rule = needing.find((r) => r.name.startsWith('is')) ?? needing[0];
  return rule === undefined ? undefined : { rule: rule.name, type: (RULE_TYPES.get(rule.name) as Function).name };
}

/**
 * The startup message for such a field.
 *
 * @example
 * untypedQueryFieldMessage('ListQuery', 'page', { rule: 'isInt', type: 'Number' });
 */
export function untypedQueryFieldMessage(model: string, field: string, missing: { rule: string; type: string }): string {
  const decorator = `@${missing.rule[0].toUpperCase()}${missing.rule.slice(1)}()`;
  return (
    `${model}.${field} has ${decorator} but no type Tern can convert the query string's text with: ` +
    `add @Type(() => ${missing.type}) (from class-transformer) to ${model}.${field}. ` +
    'Without it the value stays a string and fails its rule wherever no decorator metadata is emitted (tsx, esbuild, vitest) ' +
    "or the property's type is a union (`number | null` emits Object)."
  );
}
