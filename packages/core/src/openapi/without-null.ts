import type { ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';

/**
 * A schema without its `null` alternative. `@IsOptional()` properties accept `null` in a JSON body,
 * but a query string cannot carry `null` (`?page=null` is the text 'null'), so the query
 * parameters of a `@Query()` model are documented without it.
 *
 * @example
 * withoutNull({ type: ['integer', 'null'] });                 // { type: 'integer' }
 * withoutNull({ anyOf: [{ $ref: '#/…/X' }, { type: 'null' }] }); // { $ref: '#/…/X' }
 */
export function withoutNull(schema: SchemaObject | ReferenceObject): SchemaObject | ReferenceObject {
  if ('$ref' in schema) return schema;
  const out: SchemaObject = { ...schema };
  if (Array.isArray(out.type)) {
    const types = out.type.filter((t) => t !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  if (out.enum) out.enum = out.enum.filter((v) => v !== null);
  if (out.anyOf) {
    const rest = out.anyOf.filter((s) => !(!('$ref' in s) && s.type === 'null' && Object.keys(s).length === 1));
    if (rest.length === 1 && Object.keys(out).length === 1) return rest[0];
    out.anyOf = rest;
  }
  return out;
}
