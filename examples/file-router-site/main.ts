/**
 * Serves the file-router site: `npx tsc -b && node examples/dist/file-router-site/main.js`
 * (PORT defaults to 3002; NODE_ENV=development turns on debug messages and template reloading).
 */
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';

const development = process.env.NODE_ENV === 'development';
const app = buildApp({ debug: development, autoReload: development });

app
  .listen({ port: Number(process.env.PORT ?? 3002), host: process.env.HOST ?? '127.0.0.1' })
  .then((address) => {
    console.log(`Tern Notes listening on ${address}`);
    closeWithGrace({ delay: 10_000 }, async ({ err }) => {
      if (err) console.error(err);
      await app.close();
    });
  })
  .catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
