/**
 * The JSON Schema side of the contract check: resolving `$ref`s of the app's document, and
 * checking a response body against the schema its status documents (ajv, JSON Schema 2020-12,
 * which is what OpenAPI 3.1 schemas are).
 */
import type { default as Ajv2020Type } from 'ajv/dist/2020';
import type { ValidateFunction } from 'ajv';
import { loadOptional } from './optional';

/** A schema of the document, loosely typed: the check reads whatever the document holds. */
export interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  multipleOf?: number;
  items?: Schema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  contentMediaType?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
}

/** The part of an OpenAPI document the check reads. */
export interface ContractDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, SecuritySchemeObject> };
  security?: Array<Record<string, string[]>>;
}

export interface SecuritySchemeObject {
  type: string;
  scheme?: string;
  in?: string;
  name?: string;
}

const DOCUMENT_ID = 'urn:tern:contract';
/** The same components, their objects closed (see `closeObjects`). */
const CLOSED_ID = 'urn:tern:contract-closed';

/** The schema a `$ref` of the document names (refs to refs followed). */
export function resolve(schema: Schema | undefined, document: ContractDocument): Schema | undefined {
  let current = schema;
  for (let hops = 0; current?.$ref !== undefined && hops < 32; hops++) {
    const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
    current = name === undefined ? undefined : document.components?.schemas?.[decodeURIComponent(name)];
  }
  return current;
}

/** One `allOf` merged into a single object schema (the shape Tern writes for uploads). */
export function flatten(schema: Schema | undefined, document: ContractDocument): Schema | undefined {
  const resolved = resolve(schema, document);
  if (!resolved?.allOf) return resolved;
  const merged: Schema = { type: 'object', properties: {}, required: [] };
  for (const part of resolved.allOf.map((p) => flatten(p, document))) {
    if (!part) continue;
    Object.assign(merged.properties as object, part.properties);
    merged.required = [...(merged.required ?? []), ...(part.required ?? [])];
    if (part.additionalProperties === false) merged.additionalProperties = false;
  }
  return merged;
}

/** Validates JSON values against schemas of one document; each schema is compiled once. */
export class SchemaChecker {
  private readonly ajv: Ajv2020Type;
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly compiledClosed = new Map<object, ValidateFunction>();
  private readonly document: ContractDocument;

  constructor(document: ContractDocument) {
    const Ajv2020 = loadOptional<{ default: typeof Ajv2020Type }>('ajv/dist/2020', 'ajv').default;
    const addFormats = loadOptional<{ default: (ajv: Ajv2020Type) => void }>('ajv-formats', 'ajv-formats').default;
    this.ajv = new Ajv2020({ strict: false, allErrors: false, logger: false });
    addFormats(this.ajv);
    // OpenAPI's own formats: sizes and hints, not constraints a JSON value can break.
    for (const name of ['int32', 'int64', 'float', 'double', 'password', 'binary', 'byte']) this.ajv.addFormat(name, true);
    this.ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas: absoluteRefs(document.components?.schemas ?? {}) } });
    this.document = document;
  }

  /**
   * `undefined` when `value` matches, else ajv's first complaint, e.g. `/items/0/id must be integer`.
   * With `closed`, object schemas that declare `properties` and say nothing of others refuse
   * undeclared ones.
   */
  check(schema: Schema, value: unknown, { closed = false } = {}): string | undefined {
    const cache = closed ? this.compiledClosed : this.compiled;
    let validate = cache.get(schema);
    if (!validate) {
      if (closed && this.compiledClosed.size === 0) {
        const components = closeComponents(this.document.components?.schemas ?? {}, openedByComposition(this.document));
        this.ajv.addSchema({ $id: CLOSED_ID, components: { schemas: absoluteRefs(components, CLOSED_ID) } });
      }
      validate = closed ? this.ajv.compile(absoluteRefs(closeObjects(schema), CLOSED_ID) as object) : this.ajv.compile(absoluteRefs(schema) as object);
      cache.set(schema, validate);
    }
    if (validate(value)) return undefined;
    const error = validate.errors?.[0];
    return error ? `${error.instancePath || '(body)'} ${error.message ?? 'does not match'}${error.params ? ` ${JSON.stringify(error.params)}` : ''}` : 'does not match';
  }
}

/** The schema with every `#/components/...` ref pointed at the document ajv holds. */
function absoluteRefs<T>(schema: T, id = DOCUMENT_ID): T {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${id}#/`)) as T;
}

/**
 * A copy of `schema` whose object schemas with `properties` and no word on others get
 * `additionalProperties: false`. Schemas under `allOf`/`anyOf`/`oneOf` (and the components they
 * name, see `closeComponents`) stay open: closing one part of a composition would refuse the
 * others' properties.
 */
function closeObjects<T>(schema: T): T {
  const close = (node: unknown, open: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => close(item, open));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      const composed = key === 'allOf' || key === 'anyOf' || key === 'oneOf';
      out[key] = key === 'properties' && value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, close(property, false)])) : close(value, open || composed);
    }
    if (!open && out.properties && out.additionalProperties === undefined && out.unevaluatedProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return close(schema, false) as T;
}

/** Each component closed (`closeObjects`), but those a composition names. */
function closeComponents(components: Record<string, Schema>, opened: ReadonlySet<string>): Record<string, Schema> {
  return Object.fromEntries(Object.entries(components).map(([name, component]) => [name, opened.has(name) ? component : closeObjects(component)]));
}

/** Components a composition (`allOf`, `anyOf`, `oneOf`) names anywhere in the document. */
function openedByComposition(document: ContractDocument): Set<string> {
  const names = new Set<string>();
  const visit = (node: unknown, inComposition: boolean): void => {
    if (Array.isArray(node)) return node.forEach((item) => visit(item, inComposition));
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && inComposition && typeof value === 'string') {
        const name = /^#\/components\/schemas\/(.+)$/.exec(value)?.[1];
        if (name !== undefined) names.add(decodeURIComponent(name));
      }
      visit(value, inComposition || key === 'allOf' || key === 'anyOf' || key === 'oneOf');
    }
  };
  visit(document, false);
  return names;
}
