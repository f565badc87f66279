/**
 * Several Tern processes behind one port: `node main.js` starts a primary that forks one worker
 * per CPU (`WORKERS=2` to choose). SIGTERM or Ctrl-C drains every worker, then exits 0.
 * Settings: see settings.ts.
 */
import { randomBytes } from 'node:crypto';
import { extname, join } from 'node:path';
import { runPrimary } from './primary';
import { readSettings } from './settings';

const settings = readSettings(process.env);
// Every worker must sign session cookies with one secret; forked workers inherit this variable.
process.env.SESSION_SECRET ??= randomBytes(32).toString('base64url');
runPrimary({
  workers: settings.workers,
  // worker.ts under ts-node, worker.js once compiled.
  exec: join(__dirname, `worker${extname(__filename)}`),
  shutdownTimeoutMs: settings.shutdownTimeoutMs,
});
console.log(`Tern cluster primary ${process.pid}: ${settings.workers} worker(s) on ${settings.host}:${settings.port}`);
