/**
 * A Standard Schema read from the query string, documented as one query parameter per property
 * of its input JSON Schema (required as the schema says). Nested objects have no query-string
 * form: such a property is validated but not listed, as for class models.
 */
import type { ParameterObject, SchemaObject } from 'openapi3-ts/oas31';
import { queryProperties, standardJsonSchema, type StandardSchemaV1 } from '../../validation/standard-schema';

/**
 * The query parameters `schema` describes. Throws (`TERN_INVALID_ARGUMENT`) when the schema
 * cannot describe itself, as a request body schema would.
 *
 * @example
 * standardQueryParameters(z.object({ page: z.number().optional() }));
 * // [{ name: 'page', in: 'query', required: false, schema: { type: 'number' } }]
 */
export function standardQueryParameters(schema: StandardSchemaV1): ParameterObject[] {
  // Called for its refusal: a schema that cannot describe itself fails here, naming why.
  standardJsonSchema(schema, 'input');
  const { properties, required } = queryProperties(schema);
  const out: ParameterObject[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (JSON.stringify(property).includes('"$ref"')) continue;
    const parameter: ParameterObject = { name, in: 'query', required: required.includes(name), schema: { ...(property as SchemaObject) } };
    if (typeof property.description === 'string') parameter.description = property.description;
    if ([property.type].flat().includes('array')) Object.assign(parameter, { style: 'form', explode: true });
    out.push(parameter);
  }
  return out;
}
