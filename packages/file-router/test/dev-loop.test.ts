/**
 * The dev loop (`@tern/file-router/dev`, behind `npm run dev:site`) with stand-ins for tsc and the
 * site: a good build starts the server, a build with errors leaves it running, the next good
 * build restarts it; compiled files of deleted sources are removed first; the server gets a fixed
 * development secret; open pages are told to reload.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { DevLoop, developmentSecret, type DevLoopOptions } from '@tern/file-router/dev';

const FIXTURES = join(__dirname, 'fixtures', 'dev');

describe('the dev loop', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-dev-loop-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('restarts the server after each good build and keeps it through a failed one', async () => {
    const builds = join(dir, 'builds.txt');
    const events = join(dir, 'events.txt');
    writeFileSync(builds, '0\n3\n0\n');
    writeFileSync(events, '');
    const lines: string[] = [];
    const loop = new DevLoop({
      compiler: { command: process.execPath, args: [join(FIXTURES, 'fake-compiler.js'), builds] },
      server: { command: process.execPath, args: [join(FIXTURES, 'fake-server.js'), events] },
      log: (line) => lines.push(line),
      liveReload: false,
    });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await loop.start();
      const deadline = Date.now() + 10_000;
      while (readFileSync(events, 'utf8').split('\n').filter((l) => l.startsWith('start')).length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await loop.stop();
    } finally {
      write.mockRestore();
    }
    const log = readFileSync(events, 'utf8').trim().split('\n').map((line) => line.split(' '));
    expect(log.map(([what]) => what)).toEqual(['start', 'stop', 'start', 'stop']);
    // The first server stopped before the second started; each stop is the server before it.
    expect(log[1][1]).toBe(log[0][1]);
    expect(log[3][1]).toBe(log[2][1]);
    expect(log[2][1]).not.toBe(log[0][1]);
    expect(loop.starts).toBe(2);
    expect(lines).toContain('[dev] the build has errors: the last good server keeps running');
  }, 20_000);

  async function runOnce(options: Partial<DevLoopOptions>, server: string[]): Promise<{ loop: DevLoop; lines: string[] }> {
    const builds = join(dir, 'builds.txt');
    writeFileSync(builds, '0\n');
    const lines: string[] = [];
    const loop = new DevLoop({
      compiler: { command: process.execPath, args: [join(FIXTURES, 'fake-compiler.js'), builds] },
      server: { command: process.execPath, args: server },
      log: (line) => lines.push(line),
      ...options,
    });
    return { loop, lines };
  }

  async function until(check: () => boolean): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  }

  it('removes compiled route files whose source was deleted before the server starts, so a deleted folder is no route', async () => {
    const source = join(dir, 'src', 'routes');
    const compiled = join(dir, 'dist', 'routes');
    for (const [path, text] of Object.entries({
      'src/routes/kept/route.ts': 'export {};',
      'dist/routes/kept/route.js': 'exports.get = async () => ({ page: "kept" });',
      'dist/routes/gone/route.js': 'exports.get = async () => ({ page: "gone" });',
      'dist/routes/gone/route.d.ts': 'export {};',
      'dist/routes/gone/deeper/route.js': 'exports.get = async () => ({ page: "deeper" });',
      'dist/routes/kept/logo.svg': '<svg/>',
    })) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const events = join(dir, 'events.txt');
    writeFileSync(events, '');
    const { loop, lines } = await runOnce({ prune: [{ source, compiled }], liveReload: false }, [join(FIXTURES, 'fake-server.js'), events]);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await loop.start();
      await until(() => readFileSync(events, 'utf8').includes('start'));
      await loop.stop();
    } finally {
      write.mockRestore();
    }
    expect(existsSync(join(dir, 'dist/routes/gone'))).toBe(false);
    expect(existsSync(join(dir, 'dist/routes/kept/route.js'))).toBe(true);
    expect(existsSync(join(dir, 'dist/routes/kept/logo.svg'))).toBe(true);
    expect(lines).toEqual(expect.arrayContaining([expect.stringContaining('removed gone/route.js')]));
    // What the restarted server would load: only the route that still has a source.
    const app = new TernApp({ logger: false });
    new FileRouter(app, { root: compiled });
    expect((await app.inject('/kept')).json()).toEqual({ page: 'kept' });
    expect((await app.inject('/gone')).statusCode).toBe(404);
  }, 20_000);

  it('gives the server NODE_ENV=development and a fixed secret (the same after a restart), and tells open pages to reload', async () => {
    const env = join(dir, 'env.txt');
    const { loop } = await runOnce({}, ['-e', `require('fs').appendFileSync(${JSON.stringify(env)}, JSON.stringify([process.env.NODE_ENV, process.env.TERN_DEV_SECRET, process.env.TERN_LIVE_RELOAD]) + '\\n'); setInterval(() => {}, 1 << 30);`]);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    let reloads = '';
    try {
      await loop.start();
      const origin = loop.liveReload?.origin as string;
      // A page listening, as the script in every rendered page does.
      const listening = new Promise<void>((resolve) =>
        get(`${origin}/events`, (res) => {
          res.on('data', (chunk: Buffer) => {
            reloads += chunk.toString();
            resolve();
          });
        }),
      );
      await listening;
      await until(() => existsSync(env) && reloads.includes('event: reload'));
      await loop.stop();
    } finally {
      write.mockRestore();
    }
    const [nodeEnv, secret, liveReload] = JSON.parse(readFileSync(env, 'utf8').trim().split('\n')[0]);
    expect(nodeEnv).toBe('development');
    expect(secret).toBe(developmentSecret(process.cwd()));
    expect(secret).toMatch(/^tern-dev-.{32}$/);
    expect(liveReload).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(reloads).toContain('event: reload');
  }, 20_000);
});
