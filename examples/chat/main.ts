import { buildApp } from './app';

// One process here; docs/websockets.md#scaling-out shows the same app in several processes on Redis.
buildApp()
  .listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => console.log(`Chat on ${address}`));
