/**
 * The snippets of docs/database.md, observability.md, client.md, deployment.md and production-checklist.md,
 * written out of the pages into files and run as a reader would (getting-started.md is run the
 * same way, from a fresh folder, by `npm run test:packed`). A page that drifts from the code
 * fails here.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import diagnostics_channel from 'node:diagnostics_channel';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT_DIR, SOURCE_ENV, SOURCE_EXEC_ARGV } from '../test-support/source-process';
import type { TernApp } from '@tern/core';
import { writeClientTypes } from '@tern/core/openapi';

/** The code block right after the line "`<file>`:" (and a blank line) on a docs page. */
function shown(page: string, file: string): string {
  const text = readFileSync(join(ROOT_DIR, 'docs', page), 'utf8');
  const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\`${escaped}\`[^\\n]*:\\n\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``, 'm').exec(text);
  if (!match) throw new Error(`docs/${page} shows no \`${file}\` block`);
  return `${match[1]}\n`;
}

/** The first ```ts block after `heading` on a page. */
function blockAfter(page: string, heading: string): string {
  const text = readFileSync(join(ROOT_DIR, 'docs', page), 'utf8');
  const from = text.indexOf(heading);
  if (from === -1) throw new Error(`docs/${page} has no "${heading}"`);
  const match = /```ts\n([\s\S]*?)\n```/.exec(text.slice(from));
  if (!match) throw new Error(`docs/${page} has no ts block after "${heading}"`);
  return `${match[1]}\n`;
}

// Inside the repository (.tmp/ is ignored by git), so the files resolve packages as user code would.
const tmp = join(ROOT_DIR, '.tmp');
mkdirSync(tmp, { recursive: true });
const project = mkdtempSync(join(tmp, 'docs-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function write(files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(project, file, '..'), { recursive: true });
    writeFileSync(join(project, file), text);
  }
}

/** Runs `file` (TypeScript) in a child process from the sources; resolves once `ready` matches its output. */
function start(file: string, ready: RegExp, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...SOURCE_EXEC_ARGV, join(project, file)], { cwd: project, env: { ...process.env, ...SOURCE_ENV, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const started = new Promise<RegExpExecArray>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve(match);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`${file} exited (${code}) before it was ready:\n${output}`)));
  });
  // A script that is not a server never says it is ready: its exit is what the test awaits.
  started.catch(() => undefined);
  return { child, started, exited, output: () => output };
}

describe('docs/database.md', () => {
  it('runs the @tern/postgres app: migrations from the folder, 409 for a taken name, count(*) as a number, readiness', async () => {
    write({ 'src/app.ts': shown('database.md', 'src/app.ts'), 'migrations/001-tags.sql': shown('database.md', 'migrations/001-tags.sql') });
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the page's file is the subject
    const { buildApp } = require(join(project, 'src/app.ts')) as { buildApp: () => TernApp };
    const app = buildApp();
    try {
      expect((await app.inject({ method: 'POST', url: '/tags/tern' })).statusCode).toBe(201);
      const again = await app.inject({ method: 'POST', url: '/tags/tern' });
      expect([again.statusCode, again.json().detail]).toEqual([409, 'name has already been taken']);
      expect((await app.inject('/tags/count')).body).toBe('{"count":1}');
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: 'pglite' });
    } finally {
      await app.close();
    }
  });
});

describe('docs/client.md', () => {
  it('writes openapi.json without running onStartup hooks, and the client types from it', async () => {
    write({
      'src/app.ts': shown('database.md', 'src/app.ts'),
      'migrations/001-tags.sql': shown('database.md', 'migrations/001-tags.sql'),
      'scripts/openapi.ts': shown('client.md', 'scripts/openapi.ts'),
    });
    // The app of database.md, pointed at a server that does not exist: opening it would fail.
    const script = start('scripts/openapi.ts', /$^/, { DATABASE_URL: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    expect([await script.exited, script.output()]).toEqual([0, '']);
    const document = JSON.parse(readFileSync(join(project, 'openapi.json'), 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/tags/{name}', '/tags/count', '/readyz']));
    expect(await writeClientTypes(join(project, 'openapi.json'), join(project, 'src/api.d.ts'))).toBe(true);
    expect(readFileSync(join(project, 'src/api.d.ts'), 'utf8')).toContain('"/tags/count": {');
  });
});

describe('docs/observability.md', () => {
  it('names spans by route with @tern/otel, and exits on SIGTERM without waiting for the exporter', async () => {
    write({ 'src/telemetry.ts': shown('observability.md', 'src/telemetry.ts'), 'src/main.ts': shown('observability.md', 'src/main.ts') });
    const main = start('src/main.ts', /listening on (\S+)/, { PORT: '0' });
    try {
      const [, address] = await main.started;
      expect((await fetch(`${address}/users/7`)).status).toBe(200);
      for (let i = 0; i < 3000 && !main.output().includes("name: 'GET /users/{id}'"); i++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(main.output()).toContain("name: 'GET /users/{id}'");
      expect(main.output()).toContain("'http.route': '/users/{id}'");
      main.child.kill('SIGTERM');
      expect(await main.exited).toBe(0);
    } finally {
      main.child.kill('SIGKILL');
    }
  });

  it('subscribes to tern.request as the channel snippet does (which compiles on today’s @types/node)', async () => {
    const logged: unknown[][] = [];
    const log = jest.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    // Channels are global to the process: what the snippet subscribes is unsubscribed after, or
    // it would log every request of the test files this worker runs next.
    const subscribed: Array<[string, (message: unknown, name: string | symbol) => void]> = [];
    const subscribe = diagnostics_channel.subscribe;
    const spy = jest.spyOn(diagnostics_channel, 'subscribe').mockImplementation((name, listener) => {
      subscribed.push([String(name), listener]);
      subscribe(name, listener);
    });
    try {
      const snippet = blockAfter('observability.md', '| `tracing:tern.request:asyncStart` / `asyncEnd` |');
      write({ 'src/channel.ts': snippet });
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the page's file is the subject
      require(join(project, 'src/channel.ts'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the same module registry as the snippet's import
      const { TernApp: App } = require('@tern/core') as typeof import('@tern/core');
      const app = new App({ logger: false });
      app.get('/users/{id:int}', async (req, res, { id }) => ({ id }));
      await app.inject('/users/7');
      expect(subscribed.map(([name]) => name)).toEqual(['tracing:tern.request:start', 'tracing:tern.request:asyncEnd', 'tracing:tern.request:error']);
      expect(logged.map((args) => [args[0], args[2] ?? args[1]])).toEqual([
        ['start', '/users/{id}'],
        ['answered', 200],
      ]);
    } finally {
      for (const [name, listener] of subscribed) diagnostics_channel.unsubscribe(name, listener);
      spy.mockRestore();
      log.mockRestore();
    }
  });
});

describe('docs/production-checklist.md', () => {
  it('answers /readyz 503 during the drain delay after SIGTERM, then exits 0', async () => {
    write({ 'src/checklist.ts': blockAfter('production-checklist.md', '## Example') });
    const main = start('src/checklist.ts', /listening on (\S+)/, { PORT: '0', DRAIN_DELAY_MS: '3000' });
    try {
      const [, address] = await main.started;
      expect((await fetch(`${address}/readyz`)).status).toBe(200);
      main.child.kill('SIGTERM');
      let status = 200;
      for (let i = 0; i < 100 && status === 200; i++) status = (await fetch(`${address}/readyz`)).status;
      expect(status).toBe(503);
      expect(await main.exited).toBe(0);
    } finally {
      main.child.kill('SIGKILL');
    }
  });
});

/** A port nothing listens on now, for a snippet that takes PORT and prints no address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('docs/deployment.md', () => {
  it('runs the graceful shutdown snippet: /readyz turns 503 during the drain delay after SIGTERM, then the process exits 0', async () => {
    // The snippet imports `./app` "as in examples/cluster/app.ts": that is the app it gets.
    write({
      'src/deploy-app.ts': `export { buildApp } from ${JSON.stringify(join(ROOT_DIR, 'examples', 'cluster', 'app'))};\n`,
      'src/deploy-main.ts': blockAfter('deployment.md', '## Graceful shutdown').replace("from './app';", "from './deploy-app';"),
    });
    const port = await freePort();
    const main = start('src/deploy-main.ts', /(?!)/, { PORT: String(port) });
    const address = `http://127.0.0.1:${port}`;
    const readyz = async () => (await fetch(`${address}/readyz`).catch(() => undefined))?.status;
    try {
      let status: number | undefined;
      for (let i = 0; i < 600 && status !== 200; i++) {
        status = await readyz();
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe(200);
      main.child.kill('SIGTERM');
      for (let i = 0; i < 100 && status === 200; i++) status = await readyz();
      expect(status).toBe(503);
      expect(await main.exited).toBe(0);
    } finally {
      main.child.kill('SIGKILL');
    }
  });
});
