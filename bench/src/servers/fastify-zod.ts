/**
 * Scenario 3 with a zod model (`body-zod`): Fastify 5 with fastify-type-provider-zod, as its
 * README sets it up (`validatorCompiler`, `serializerCompiler`), POST /items validated by the zod
 * schema of shared/item-zod.ts. No response schema, as on the Tern side.
 */
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { itemZodSchema } from '../shared/item-zod';
import { FillerRoute, colonPath, fillerBody, splitFillers } from '../shared/routes';
import type { RunningServer, ServerOptions, StartServer } from './types';

export async function startFastifyZod(options: ServerOptions): Promise<RunningServer> {
  const app = Fastify({ logger: false });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(colonPath(route), async () => body);
    }
  };
  addFillers(before);
  let nextId = 0;
  app.withTypeProvider<ZodTypeProvider>().post('/items', { schema: { body: itemZodSchema } }, async (req, reply) => {
    reply.code(201);
    return { id: ++nextId, ...req.body };
  });
  addFillers(after);
  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startFastifyZod(options);
