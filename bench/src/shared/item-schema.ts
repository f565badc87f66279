/**
 * Fastify's JSON schema for POST /items: the same rules as item-dto.ts. Fastify's Ajv strips
 * properties not in a schema with `additionalProperties: false` (removeAdditional), which
 * matches the whitelisting of Tern and of Nest's ValidationPipe({ whitelist: true }).
 */
export const itemSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'price', 'tags', 'owner', 'lines'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    price: { type: 'number', minimum: 0 },
    tags: { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 50 } },
    owner: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'email'],
      properties: {
        name: { type: 'string', minLength: 1, maxLength: 100 },
        email: { type: 'string', format: 'email' },
      },
    },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: 100,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['sku', 'qty'],
        properties: {
          sku: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Z0-9-]+$' },
          qty: { type: 'integer', minimum: 1 },
        },
      },
    },
  },
} as const;
