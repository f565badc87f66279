import { buildApp } from './app';

buildApp()
  .listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => console.log(`Downloads and live clock on ${address}`));
