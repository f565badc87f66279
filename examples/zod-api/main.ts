import { buildApp } from './app';

// In development, validateResponses (on with debug) also checks every answer with zod.
buildApp({ debug: process.env.NODE_ENV !== 'production' })
  .listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => console.log(`Tasks API listening on ${address}: try POST ${address}/tasks, or ${address}/docs`));
