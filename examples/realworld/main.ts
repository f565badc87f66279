import 'reflect-metadata';
import closeWithGrace from 'close-with-grace';
import { API_PREFIX, buildApp } from './app';
import { jwtSecretFromEnv } from './auth';
import { databaseOptionsFromEnv } from '@tern/postgres';

async function main(): Promise<void> {
  const database = databaseOptionsFromEnv();
  if (!process.env.JWT_SECRET) console.warn('JWT_SECRET is not set: tokens are signed with a random secret and die with this process.');
  const app = buildApp({ database, jwtSecret: jwtSecretFromEnv() });
  const address = await app.listen({ port: Number(process.env.PORT ?? 3003), host: process.env.HOST ?? '127.0.0.1' });
  const where = database.url ? 'PostgreSQL (DATABASE_URL)' : database.dir ? `PGlite in ${database.dir}` : 'PGlite in memory (set DATABASE_DIR to keep the data)';
  console.log(`Conduit (RealWorld) listening on ${address}${API_PREFIX}, data: ${where}`);
  if (app.openapiConfig.docsPath) console.log(`API docs: ${address}${API_PREFIX}${app.openapiConfig.docsPath}`);
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) console.error(err);
    await app.close();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
