/**
 * The zod schema of POST /items for the zod variant of scenario 3 (`body-zod`): the rules of
 * item-dto.ts and item-schema.ts, written once in zod and used by both sides, Tern
 * (`requestModel: itemZodSchema`) and Fastify through fastify-type-provider-zod. `z.object`
 * strips unknown properties, as the other servers do.
 */
import { z } from 'zod';

export const itemZodSchema = z.object({
  name: z.string().min(1).max(200),
  price: z.number().min(0),
  tags: z.array(z.string().min(1).max(50)).max(20),
  owner: z.object({ name: z.string().min(1).max(100), email: z.email() }),
  lines: z
    .array(z.object({ sku: z.string().min(1).max(64).regex(/^[A-Z0-9-]+$/), qty: z.number().int().min(1) }))
    .min(1)
    .max(100),
});
