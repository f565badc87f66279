import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import type { ModelDescription, PropertyDescription, RecordDescription, RuleDescription } from '../../validation/model-compiler';
import { allowNull, fixesType, mergeFragments } from './rules';
import { documentProperty } from './property-docs';
import { constructorSchema, isModelClass, type RefFor } from './shapes';

/** Which reading of a model a schema describes: what a request may send, or what a response writes. */
export type ModelView = 'request' | 'response';

/**
 * The object schema of one model as `view` reads it, from what its `ModelCompiler` says of it:
 * each property under the name it travels under (`inputName`/`outputName`), those hidden in that
 * direction left out. Nested classes become `$ref`s through `refFor`, so the registry decides
 * names and breaks cycles; this module only combines the rules' keywords.
 *
 * Every property is required unless class-validator may skip it (`@IsOptional`, `@ValidateIf`).
 * `additionalProperties` is left open: with `whitelist` unknown fields are stripped, not refused.
 * With `strictRefFor` (a request body under `forbidUnknownProperties`) the object is closed
 * (`additionalProperties: false`), and so is each model the validator checks inside it
 * (`@ValidateNested()`, through `strictRefFor`); a nested model it does not check stays open.
 */
export function modelSchema(description: ModelDescription, refFor: RefFor, view: ModelView, strictRefFor?: RefFor): SchemaObject {
  const properties: Record<string, SchemaObject | ReferenceObject> = {};
  const required: string[] = [];
  for (const property of description.properties) {
    if (isHidden(property, view)) continue;
    const key = wireName(property, view);
    const nestedRef = strictRefFor !== undefined && property.rules.some((rule) => rule.nested) ? strictRefFor : refFor;
    properties[key] = documentProperty(propertySchema(property, nestedRef), description.model, property.name);
    if (!property.optional) required.push(key);
  }
  const schema: SchemaObject = required.length > 0 ? { type: 'object', properties, required } : { type: 'object', properties };
  if (strictRefFor !== undefined) schema.additionalProperties = false;
  return schema;
}

/** The property is left out of `view` (`@Exclude()`, or not accepted by the validator). */
export function isHidden(property: PropertyDescription, view: ModelView): boolean {
  return (view === 'request' ? property.hiddenInInput : property.hiddenInOutput) === true;
}

/** The key `view` carries the property under (`@Expose({ name })`). */
export function wireName(property: PropertyDescription, view: ModelView): string {
  return (view === 'request' ? property.inputName : property.outputName) ?? property.name;
}

/**
 * The model class the document shows a property's value as (`$ref`), or each item of a list as;
 * `undefined` when it is none or a validator fixes another type. The response filter filters the
 * value as this class, so the two never disagree.
 *
 * @example
 * // @IsObject() author: AuthorDto  → AuthorDto (no @Type or @ValidateNested needed)
 * // @Type(() => Tag) tags: Tag[]    → Tag
 * // @IsString() author: AuthorDto   → undefined (documented and written as a string)
 */
export function modelClassOf(property: PropertyDescription): Function | undefined {
  if (property.record !== undefined) return undefined; // a map: `recordSchema`, and the filter's record plan
  const container = containerOf(property);
  if (container === 'map') return undefined;
  const ctor = container === undefined ? (property.declaredType ?? property.designType) : property.declaredType;
  const rules = container === undefined ? property.rules : property.rules.filter((v) => v.each);
  if (fragmentsOf(rules, 'value').some(fixesType)) return undefined;
  return isModelClass(ctor) ? ctor : undefined;
}

/**
 * True for a list property whose items nothing types: no `@Type`, and no `each: true` rule that
 * fixes their kind (`@IsString({ each: true })`). The document says `items: {}` and a response
 * would write the items whole, so response models refuse it (`serialization/plan.ts`).
 *
 * @example
 * // @IsArray() @ValidateNested() items: Item[]  → true (add @Type(() => Item))
 * // @IsArray() @IsString({ each: true }) tags: string[]  → false
 */
export function hasUntypedItems(property: PropertyDescription): boolean {
  if (property.record !== undefined || property.declaredType !== undefined || containerOf(property) !== 'array') return false;
  return !fragmentsOf(property.rules.filter((v) => v.each), 'value').some(fixesType);
}

/**
 * One property. A list (array or Set) or a Map gets its container rules at the top and its
 * `each: true` rules and `@Type` target on the items; anything else is a single value.
 */
function propertySchema(property: PropertyDescription, refFor: RefFor): SchemaObject | ReferenceObject {
  const { rules, designType, declaredType } = property;
  const container = containerOf(property);
  let schema: SchemaObject | ReferenceObject;
  if (property.record !== undefined) {
    schema = recordSchema(property.record, refFor);
  } else if (container === undefined) {
    schema = valueSchema(rules, declaredType ?? designType, refFor);
  } else {
    // design:type is the container (Array/Set/Map), so only @Type can name the items.
    const items = valueSchema(rules.filter((v) => v.each), declaredType, refFor);
    schema = containerSchema(container, items, rules.filter((v) => !v.each));
  }
  return property.nullable ? allowNull(schema) : schema;
}

/**
 * A map (`@IsRecord`): an object whose every value is the record's type, or a list of it. Its
 * keys are free, so only `additionalProperties` describes them.
 */
function recordSchema(record: RecordDescription, refFor: RefFor): SchemaObject {
  const one = constructorSchema(record.values, refFor);
  return { type: 'object', additionalProperties: record.list ? { type: 'array', items: one } : one };
}

type Container = 'array' | 'map';

/**
 * A property holds many values when TypeScript, an array rule or an `each: true` rule says so.
 * A Set travels as a JSON array; a Map as a JSON object.
 */
function containerOf({ rules, designType }: PropertyDescription): Container | undefined {
  if (designType === Map) return 'map';
  const listed = designType === Array || designType === Set || rules.some((v) => v.each || v.appliesTo === 'list');
  return listed ? 'array' : undefined;
}

function containerSchema(
  container: Container,
  items: SchemaObject | ReferenceObject,
  ownRules: readonly RuleDescription[],
): SchemaObject {
  if (container === 'map') {
    // A Map arrives as a JSON object whose values are the items.
    return Object.keys(items).length > 0 ? { type: 'object', additionalProperties: items } : { type: 'object' };
  }
  // Rules without `each` on a list describe the list; value rules there (a bare `@IsString()`
  // on a `string[]`) would fail every request, so they are not copied anywhere. A Set gets no
  // `uniqueItems`: class-transformer drops duplicates silently, so they are not refused.
  const schema = mergeFragments({ type: 'array', items }, fragmentsOf(ownRules, 'list'));
  // `@ArrayUnique()` compares items with `===` (or by a key selector it keeps in a closure), so
  // two equal objects parsed from JSON are two items to it, while `uniqueItems` compares by
  // value and would refuse them. Only for scalar items do the two agree.
  if (schema.uniqueItems && !holdsScalars(items)) delete schema.uniqueItems;
  return schema;
}

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'null']);

function holdsScalars(schema: SchemaObject | ReferenceObject): boolean {
  if ('$ref' in schema) return false;
  if ('enum' in schema || 'const' in schema) return true; // the constraint table keeps only scalar values there
  const types = schema.type === undefined ? [] : [schema.type].flat();
  return types.length > 0 && types.every((t) => SCALAR_TYPES.has(t));
}

/**
 * One value. Validators that fix the type (`@IsInt`, `@IsEnum`...) win over `@Type` and
 * design:type, which only fill in when no validator says what the value is. A model class
 * becomes a `$ref`, and `@IsObject()` beside it adds nothing the `$ref` does not say.
 */
function valueSchema(
  rules: readonly RuleDescription[],
  ctor: Function | undefined,
  refFor: RefFor,
): SchemaObject | ReferenceObject {
  const fragments = fragmentsOf(rules, 'value');
  const typed = fragments.some(fixesType);
  if (!typed && isModelClass(ctor)) return refFor(ctor);
  const base = typed ? {} : (constructorSchema(ctor, refFor) as SchemaObject);
  const schema = mergeFragments(base, fragments);
  // `@IsNotEmpty()` refuses '', null and undefined; only the '' part is a keyword, for strings.
  if (schema.type === 'string' && rules.some((v) => v.name === 'isNotEmpty')) {
    schema.minLength = Math.max(schema.minLength ?? 0, 1);
  }
  return schema;
}

/** The keywords of the rules that describe `target` (a single value, or the list itself). */
function fragmentsOf(rules: readonly RuleDescription[], target: RuleDescription['appliesTo']): SchemaObject[] {
  const fragments: SchemaObject[] = [];
  for (const rule of rules) if (rule.appliesTo === target && rule.schema !== undefined) fragments.push(rule.schema);
  return fragments;
}
