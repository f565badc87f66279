import { buildApi, buildApp } from './app';

// The page on one port, the API it calls cross-origin on the next one.
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
const pageOrigin = `http://${host}:${port}`;
const apiOrigin = `http://${host}:${port + 1}`;

buildApi(pageOrigin)
  .listen({ port: port + 1, host })
  .then((address) => console.log(`API (CORS for ${pageOrigin}) on ${address}`))
  .then(() => buildApp({ apiOrigin }).listen({ port, host }))
  .then((address) => console.log(`Downloads, uploads and live clock on ${address}`));
