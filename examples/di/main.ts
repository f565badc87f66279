import { buildApp } from './app';

async function main(): Promise<void> {
  const app = buildApp();
  const address = await app.listen({ port: Number(process.env.PORT ?? 3000) });
  console.log(`Tern DI example listening on ${address}`);
  console.log(`Try: curl -X PATCH -H 'content-type: application/json' -H 'x-user: ada' -d '{"name":"Ada"}' ${address}/users/1`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
