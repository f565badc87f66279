import 'reflect-metadata';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';

async function main(): Promise<void> {
  const app = buildApp();
  const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  const docs = app.openapiConfig.docsPath;
  console.log(`Tern controllers example listening on ${address}`);
  if (docs) console.log(`API docs: ${address}${docs}`);
  console.log(`Try: curl -H 'Authorization: Bearer ada-token' ${address}/api/v2/users/me`);
  // Ctrl-C or SIGTERM: stop accepting, let in-flight requests finish, then exit.
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) console.error(err);
    await app.close();
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
