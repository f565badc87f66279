/**
 * `npm run dev:site`: rebuilds the repository on every change (`tsc -b --watch`), re-bundles
 * @tern/core, and restarts this site after each good build with `NODE_ENV=development` (debug on,
 * templates re-read on every render) and a fixed development secret (open forms survive a
 * restart). Route files deleted from the sources are removed from the compiled output, and open
 * pages reload after each restart and each template or stylesheet change. Stop it with Ctrl-C.
 */
import { join } from 'node:path';
import { DevLoop } from '@tern/file-router/dev';

/** The repository root: this file runs as examples/dist/file-router-site/dev.js. */
const ROOT = join(__dirname, '..', '..', '..');
const SOURCES = join(ROOT, 'examples', 'file-router-site');

const loop = new DevLoop({
  compiler: { command: process.execPath, args: [require.resolve('typescript/bin/tsc'), '-b', 'tsconfig.json', '--watch', '--preserveWatchOutput'], cwd: ROOT },
  afterBuild: { command: process.execPath, args: [join(ROOT, 'scripts', 'bundle-core.mjs')], cwd: ROOT },
  server: { command: process.execPath, args: [join(__dirname, 'main.js')], cwd: ROOT },
  prune: [{ source: join(SOURCES, 'routes'), compiled: join(__dirname, 'routes') }],
  watch: [join(SOURCES, 'templates'), join(SOURCES, 'public')],
});
void loop.start();
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void loop.stop().then(() => process.exit(0)));
