import { buildApp } from './app';

// In development, validateResponses (on with debug) also checks every filtered body against its model.
buildApp({ debug: process.env.NODE_ENV !== 'production' })
  .listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => console.log(`Users API listening on ${address}: try ${address}/auth/me`));
