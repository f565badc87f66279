import closeWithGrace from 'close-with-grace';
import pino from 'pino';
import { buildApp } from './app';

async function main(): Promise<void> {
  const log = pino();
  // Behind a proxy on this host: TRUST_PROXY=loopback (see docs/proxies.md).
  const app = buildApp({ log, trustProxy: process.env.TRUST_PROXY ?? false });
  const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
  log.info({ address }, 'listening');
  // A little longer than closeTimeout: close() ends on its own; this is the backstop.
  closeWithGrace({ delay: 12_000 }, async ({ err }) => {
    if (err) log.error({ err }, 'closing after an error');
    await app.close();
    log.info('closed');
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
