/**
 * Scenario 3 with a zod model (`body-zod`): Tern as shipped, POST /items validated by the zod
 * schema of shared/item-zod.ts (`requestModel`, through Standard Schema). Measured against
 * `fastify-zod`, Fastify with the same schema through fastify-type-provider-zod.
 */
import { TernApp } from '@tern/core';
import { itemZodSchema } from '../shared/item-zod';
import { ternFillers } from './tern-plain';
import type { RunningServer, ServerOptions, StartServer } from './types';

export async function startTernZod(options: ServerOptions): Promise<RunningServer> {
  const app = new TernApp();
  const [addBefore, addAfter] = ternFillers(app, options.fillers);
  addBefore();
  let nextId = 0;
  app.post('/items', { requestModel: itemZodSchema, statusCode: 201 }, async (req) => ({ id: ++nextId, ...req.body }));
  addAfter();
  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startTernZod(options);
