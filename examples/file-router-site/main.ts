/**
 * Serves the file-router site: `npm run start:site` (build, then run), or `npm run dev:site` to
 * work on it: rebuilds on every change, restarts on changed route files, reloads templates.
 * PORT defaults to 3002; NODE_ENV=development turns on debug messages and template reloading;
 * SITE_SECRET signs the CSRF and flash cookies, SESSION_SECRET (32+ characters) the session cookie,
 * and REDIS_URL shares sessions and the sign-in rate limit (set them when several processes serve the site).
 */
import closeWithGrace from 'close-with-grace';
import { redisStore } from '@tern/core';
import { buildApp } from './app';

const development = process.env.NODE_ENV === 'development';
const app = buildApp({
  debug: development,
  autoReload: development,
  secret: process.env.SITE_SECRET,
  sessionSecret: process.env.SESSION_SECRET,
  store: process.env.REDIS_URL ? redisStore({ url: process.env.REDIS_URL }) : undefined,
});

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
