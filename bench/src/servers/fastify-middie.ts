/**
 * Scenario 17: Fastify with @fastify/middie running scenario 4's three layers written as Connect
 * middleware (the way Fastify runs Express middleware), `/mw` answering with the response schema.
 */
import middie from '@fastify/middie';
import Fastify from 'fastify';
import { mwResponseSchema } from '../shared/fastify-response-schemas';
import { connectLayer1, connectLayer2, connectLayer3 } from './tern-middleware';
import type { RunningServer, StartServer } from './types';

export const start: StartServer = async (options): Promise<RunningServer> => {
  const app = Fastify({ logger: false });
  await app.register(middie);
  app.use('/mw', connectLayer1);
  app.use('/mw', connectLayer2);
  app.use('/mw', connectLayer3);
  app.get('/mw', { schema: { response: { 200: mwResponseSchema } } }, async (req) => ({ user: (req.raw as { user?: { id: number } }).user!.id }));
  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
};
