import { buildApp } from './app';

buildApp()
  .listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => console.log(`Notes API listening on ${address}: POST ${address}/notes, then GET ${address}/notes/1`));
