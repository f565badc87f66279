/**
 * The dev loop (`npm run dev:site`) with stand-ins for tsc and the site: a good build starts the
 * server, a build with errors leaves it running, the next good build restarts it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevLoop } from './dev-loop';

const FIXTURES = join(__dirname, 'test-fixtures');

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
    });
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      loop.start();
      const deadline = Date.now() + 60_000;
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
  });
});
