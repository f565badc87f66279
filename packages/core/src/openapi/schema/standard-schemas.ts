/**
 * Standard Schema values in the document: their Standard JSON Schema (`input` for requests,
 * `output` for responses, draft 2020-12 as OpenAPI 3.1 reads it) placed under
 * `components.schemas`. Definitions the library names (`$defs`: zod's `.meta({ id })`, recursive
 * parts) and roots with a `title` become components under that name; an unnamed root is written
 * inline where it is used.
 */
import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import { standardJsonSchema, type StandardSchemaV1 } from '../../validation/standard-schema';
import type { ModelView } from './class-to-schema';
import { isObjectBody as isObject } from '../../validation/types';

/** OpenAPI allows only these characters in a `components.schemas` key. */
const COMPONENT_NAME = /[^A-Za-z0-9._-]/g;
const COMPONENTS = '#/components/schemas/';

/**
 * Registers Standard Schemas' JSON Schemas into a document's component map (the registry's own,
 * so class models and library schemas share one namespace).
 *
 * @example
 * const standard = new StandardSchemas(schemas);
 * standard.schemaFor(z.object({ id: z.int() }).meta({ id: 'Item' }), 'response'); // { $ref: '#/components/schemas/Item' }
 */
export class StandardSchemas {
  private readonly described = new Map<object, Partial<Record<ModelView, SchemaObject | ReferenceObject>>>();
  /** What each component this class registered was made from, so the same definition met again reuses its name. */
  private readonly origins = new Map<string, string>();

  constructor(private readonly schemas: Map<string, SchemaObject>) {}

  schemaFor(schema: StandardSchemaV1, view: ModelView): SchemaObject | ReferenceObject {
    const known = this.described.get(schema)?.[view];
    if (known !== undefined) return structuredClone(known);
    const { $schema: _dialect, $defs, definitions, $id, ...root } = standardJsonSchema(schema, view === 'response' ? 'output' : 'input');
    const defs: Record<string, unknown> = { ...(isObject(definitions) ? definitions : {}), ...(isObject($defs) ? $defs : {}) };
    const names = new Map<string, string>();
    const fresh: string[] = [];
    for (const [name, definition] of Object.entries(defs)) {
      const claimed = this.claim(name, JSON.stringify(definition), view);
      names.set(name, claimed.name);
      if (claimed.fresh) fresh.push(name);
    }
    // A root that refers to itself (`$ref: '#'`) must be a component: inline, '#' would be the document.
    const selfReferring = JSON.stringify(root).includes('"$ref":"#"');
    const title = typeof root.title === 'string' && root.title !== '' ? root.title : typeof $id === 'string' && $id !== '' ? $id : undefined;
    let rootName: string | undefined;
    let rootFresh = false;
    if (title !== undefined || selfReferring) {
      const claimed = this.claim(title ?? 'Schema', JSON.stringify(root), view);
      rootName = claimed.name;
      rootFresh = claimed.fresh;
    }
    const rewrite = (value: unknown): unknown => rewriteRefs(value, names, rootName);
    for (const name of fresh) this.schemas.set(names.get(name) as string, withoutIds(rewrite(defs[name])) as SchemaObject);
    let out = rewrite(root) as SchemaObject | ReferenceObject;
    if (rootName !== undefined) {
      if (rootFresh) this.schemas.set(rootName, out as SchemaObject);
      out = { $ref: `${COMPONENTS}${rootName}` };
    }
    this.described.set(schema, { ...this.described.get(schema), [view]: out });
    return structuredClone(out);
  }

  /**
   * A component name for a definition: its own name when free or holding the same definition;
   * `Name-Input` for a request reading that differs from the response's; else `Name_2`, `Name_3`...
   */
  private claim(wanted: string, origin: string, view: ModelView): { name: string; fresh: boolean } {
    const base = wanted.replace(COMPONENT_NAME, '_') || 'Schema';
    const candidates = view === 'request' ? [base, `${base}-Input`] : [base];
    for (let n = 2; ; n++) {
      for (const name of candidates) {
        if (!this.schemas.has(name)) {
          this.origins.set(name, origin);
          this.schemas.set(name, {});
          return { name, fresh: true };
        }
        if (this.origins.get(name) === origin) return { name, fresh: false };
      }
      candidates.splice(0, candidates.length, `${base}_${n}`);
    }
  }
}

/** A copy with local references (`#/$defs/X`, `#/definitions/X`, `#`) pointed at components. */
function rewriteRefs(value: unknown, names: ReadonlyMap<string, string>, rootName: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names, rootName));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] = key === '$ref' && typeof item === 'string' ? localRef(item, names, rootName) : rewriteRefs(item, names, rootName);
  }
  return out;
}

function localRef(ref: string, names: ReadonlyMap<string, string>, rootName: string | undefined): string {
  if (ref === '#' && rootName !== undefined) return `${COMPONENTS}${rootName}`;
  const match = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref);
  const name = match ? names.get(decodeURIComponent(match[1].replace(/~1/g, '/').replace(/~0/g, '~'))) : undefined;
  return name === undefined ? ref : `${COMPONENTS}${name}`;
}

/** `$id` would make the references inside resolve against another base; `$schema` is the document's. */
function withoutIds(value: unknown): unknown {
  if (!isObject(value)) return value;
  const { $id: _id, $schema: _dialect, ...rest } = value;
  return rest;
}
