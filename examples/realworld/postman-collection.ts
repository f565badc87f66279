/**
 * Runs RealWorld's own Postman collection (api-spec/, vendored with its licence and source commit)
 * with newman against a Conduit that is listening, and reports what failed. newman runs as a
 * child process, with the variables RealWorld's `api/run-api-tests.sh` sets: `APIURL`, and a
 * `USERNAME`, `EMAIL` and `PASSWORD` of the run's own, so a database that already holds a run's
 * accounts still starts this one with fresh ones.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The vendored collection (see api-spec/README.md for where it comes from). */
export const CONDUIT_COLLECTION = join(__dirname, 'api-spec', 'Conduit.postman_collection.json');

/** What a run did: assertions and requests made, and one line per failure (empty when all passed). */
export interface CollectionRun {
  assertions: number;
  failedAssertions: number;
  requests: number;
  failures: string[];
}

/** The parts of newman's JSON report read here. */
interface NewmanReport {
  run: {
    stats: { assertions: { total: number; failed: number }; requests: { total: number } };
    failures: { source?: { name?: string }; error: { name?: string; test?: string; message: string } }[];
  };
}

/**
 * Runs the collection against `apiUrl` (the API's root, e.g. `http://127.0.0.1:3003/api`).
 * Each request may take `requestTimeoutMs`; nothing else is timed.
 *
 * @example
 * const address = await app.listen({ port: 0 });
 * const run = await runConduitCollection(`${address}/api`);
 * expect(run.failures).toEqual([]);
 */
export async function runConduitCollection(apiUrl: string, requestTimeoutMs = 30_000): Promise<CollectionRun> {
  const dir = await mkdtemp(join(tmpdir(), 'conduit-newman-'));
  const reportFile = join(dir, 'report.json');
  const username = `u${randomBytes(6).toString('hex')}`;
  try {
    const args = [
      require.resolve('newman/bin/newman.js'),
      'run', CONDUIT_COLLECTION,
      '--global-var', `APIURL=${apiUrl}`,
      '--global-var', `USERNAME=${username}`,
      '--global-var', `EMAIL=${username}@mail.com`,
      '--global-var', 'PASSWORD=password',
      '--reporters', 'json',
      '--reporter-json-export', reportFile,
      '--timeout-request', String(requestTimeoutMs),
      '--color', 'off',
    ];
    const { code, stderr } = await run(process.execPath, args);
    let report: NewmanReport;
    try {
      report = JSON.parse(await readFile(reportFile, 'utf8')) as NewmanReport;
    } catch {
      throw new Error(`newman wrote no report (exit code ${code}): ${stderr.trim() || 'no output'}`);
    }
    const { stats, failures } = report.run;
    return {
      assertions: stats.assertions.total,
      failedAssertions: stats.assertions.failed,
      requests: stats.requests.total,
      failures: failures.map(({ source, error }) => `${source?.name ?? '?'}: ${error.test ?? error.name ?? 'error'}: ${error.message}`),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs a child without blocking this process's event loop (the server under test lives here). */
function run(command: string, args: string[]): Promise<{ code: number | null; stderr: string }> {
  // Jest's NODE_OPTIONS (--experimental-vm-modules) are the test runner's, not newman's.
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 10_000) stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}
