/**
 * A Standard Schema described as JSON Schema 2020-12 (OpenAPI 3.1's dialect) through Standard
 * JSON Schema (`~standard.jsonSchema.input` / `.output`), or a clear refusal saying why it cannot
 * be described: the library offers no converter, or its converter threw (zod: a transform, a
 * `Date`).
 */
import { TernTypeError } from '../../errors';
import { describeStandardSchema } from './recognise';
import type { StandardJSONSchemaV1, StandardSchemaV1 } from './spec';

/** `input`: what requests send; `output`: what the validated value (or a response) holds. */
export type SchemaSide = 'input' | 'output';

const TARGET: StandardJSONSchemaV1.Options = Object.freeze({ target: 'draft-2020-12' });

/**
 * The JSON Schema of one side of `schema`. Throws `TERN_INVALID_ARGUMENT` naming the library
 * and the reason when the schema cannot describe itself.
 *
 * @example
 * standardJsonSchema(z.object({ n: z.string().default('x') }), 'input');
 * // { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { default: 'x', type: 'string' } } }
 */
export function standardJsonSchema(schema: StandardSchemaV1, side: SchemaSide): Record<string, unknown> {
  const converter = (schema as unknown as Partial<StandardJSONSchemaV1>)['~standard']?.jsonSchema;
  if (typeof converter?.[side] !== 'function') {
    const hint = schema['~standard'].vendor === 'valibot' ? " (wrap it with toStandardJsonSchema() from '@valibot/to-json-schema')" : '';
    throw new TernTypeError(
      'TERN_INVALID_ARGUMENT',
      `${describeStandardSchema(schema)} cannot describe itself: it has no ~standard.jsonSchema (Standard JSON Schema)${hint}; ` +
        'give the route excludeFromSchema: true to serve it undocumented',
    );
  }
  let described: unknown;
  try {
    described = converter[side](TARGET);
  } catch (err) {
    throw new TernTypeError(
      'TERN_INVALID_ARGUMENT',
      `${describeStandardSchema(schema)} cannot describe its ${side} as JSON Schema: ${(err as Error)?.message ?? String(err)}; ` +
        'give the route excludeFromSchema: true to serve it undocumented',
    );
  }
  if (typeof described !== 'object' || described === null || Array.isArray(described)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `${describeStandardSchema(schema)} described its ${side} as ${typeof described}, not a JSON Schema object`);
  }
  return described as Record<string, unknown>;
}
