/**
 * The bundle loader's code cache (src/compile-cache/load-bundle.ts), in fresh Node processes as
 * a user's app starts: the loader and a small bundle are built the way scripts/bundle-core.mjs
 * builds the real ones (the bundle carries the real `__loader` hook of lifecycle/first-ready.ts).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import { loadBundle } from '../src/compile-cache/load-bundle';

const src = path.join(__dirname, '..', 'src');
let work: string;
let loader: string;
let bundle: string;
let main: string;

/** A bundle of the same length whatever `value` is (one digit). */
function writeBundle(value: number): void {
  buildSync({
    stdin: {
      contents: `export * as __loader from './lifecycle/first-ready';\nimport { announceFirstReady } from './lifecycle/first-ready';\nexport const index = { value: ${value}, ready: announceFirstReady };`,
      resolveDir: src,
      loader: 'ts',
    },
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
}

interface Start {
  value: number;
  sameModule: boolean;
}

/** Starts a process that loads the bundle twice (two entry files) and, unless told not to, gets ready. */
function start(env: Record<string, string> = {}, nodeArgs: string[] = []): Start {
  const out = execFileSync(process.execPath, [...nodeArgs, main], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, TMPDIR: path.join(work, 'tmp'), ...env },
  });
  return JSON.parse(out) as Start;
}

const defaultDir = () => path.join(work, 'tmp', `tern-compile-cache-${process.getuid!()}`);
const cacheFiles = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.bin')) : []);

beforeEach(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-compile-cache-test-'));
  fs.mkdirSync(path.join(work, 'tmp'));
  loader = path.join(work, 'load.js');
  bundle = path.join(work, 'tern.js');
  main = path.join(work, 'main.js');
  buildSync({ entryPoints: [path.join(src, 'compile-cache', 'load-bundle.ts')], outfile: loader, bundle: true, platform: 'node', format: 'cjs', packages: 'external', logLevel: 'silent' });
  writeBundle(1);
  fs.writeFileSync(
    main,
    `const { loadBundle } = require(${JSON.stringify(loader)});
const first = loadBundle(${JSON.stringify(bundle)}, 'build1');
const second = loadBundle(${JSON.stringify(bundle)}, 'build1');
if (!process.env.NOT_READY) first.index.ready();
process.stdout.write(JSON.stringify({ value: first.index.value, sameModule: first === second }));
`,
  );
});

afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

const posix = process.platform === 'win32' ? describe.skip : describe;

posix('the bundle loader keeps V8 compiled code between starts', () => {
  it('writes the cache once the first app is ready, in a private folder, and a later start runs from it', () => {
    expect(start()).toEqual({ value: 1, sameModule: true });
    const dir = defaultDir();
    const [file] = cacheFiles(dir);
    expect(cacheFiles(dir)).toHaveLength(1);
    expect(file).toMatch(new RegExp(`^tern-build1-\\d+-\\d+-${process.versions.v8.replace(/\./g, "\\.")}-${process.arch}-[0-9a-f]+\\.bin$`));
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    const written = fs.statSync(path.join(dir, file!));

    // V8 accepted the cache: the loader had nothing to rewrite.
    expect(start()).toEqual({ value: 1, sameModule: true });
    const after = fs.statSync(path.join(dir, file!));
    expect([after.ino, after.mtimeMs]).toEqual([written.ino, written.mtimeMs]);
    expect(cacheFiles(dir)).toEqual([file]);
  });

  it('never runs stale code: a bundle edited in place, at the same length, gets a cache of its own', () => {
    expect(start().value).toBe(1);
    const before = fs.statSync(bundle).size;
    writeBundle(2);
    fs.utimesSync(bundle, new Date(), new Date(Date.now() + 5000));
    expect(fs.statSync(bundle).size).toBe(before);
    expect(start().value).toBe(2);
    expect(cacheFiles(defaultDir())).toHaveLength(2);
  });

  it('compiles as usual over a corrupt cache file, and replaces it', () => {
    start();
    const file = path.join(defaultDir(), cacheFiles(defaultDir())[0]!);
    const garbage = Buffer.alloc(fs.statSync(file).size, 7);
    fs.writeFileSync(file, garbage);
    expect(start()).toEqual({ value: 1, sameModule: true });
    expect(fs.readFileSync(file).equals(garbage)).toBe(false);
  });

  it('writes nothing for a process that never gets an app ready', () => {
    expect(start({ NOT_READY: '1' }).value).toBe(1);
    expect(cacheFiles(defaultDir())).toEqual([]);
  });

  it('uses the folder TERN_COMPILE_CACHE names, and none with TERN_COMPILE_CACHE=off', () => {
    const own = path.join(work, 'own-cache');
    start({ TERN_COMPILE_CACHE: own });
    expect(cacheFiles(own)).toHaveLength(1);
    expect(fs.existsSync(defaultDir())).toBe(false);

    expect(start({ TERN_COMPILE_CACHE: 'off' })).toEqual({ value: 1, sameModule: true });
    expect(fs.existsSync(defaultDir())).toBe(false);
  });

  it('does not run code from a folder other users can write to', () => {
    const shared = path.join(work, 'shared');
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    expect(start({ TERN_COMPILE_CACHE: shared })).toEqual({ value: 1, sameModule: true });
    expect(cacheFiles(shared)).toEqual([]);
  });

  it("leaves loading to jest's own require inside a test, so the bundle's objects are the test's", () => {
    const own = path.join(work, 'own-cache');
    const saved = process.env.TERN_COMPILE_CACHE;
    process.env.TERN_COMPILE_CACHE = own;
    try {
      const loaded = loadBundle(bundle, 'build1') as { index: { value: number } };
      expect(loaded.index.value).toBe(1);
      expect(loaded.index).toBeInstanceOf(Object);
      expect(fs.existsSync(own)).toBe(false);
    } finally {
      if (saved === undefined) delete process.env.TERN_COMPILE_CACHE;
      else process.env.TERN_COMPILE_CACHE = saved;
    }
  });

  it('leaves loading to require with source maps on, so stacks still point at the sources', () => {
    expect(start({}, ['--enable-source-maps'])).toEqual({ value: 1, sameModule: true });
    expect(fs.existsSync(defaultDir())).toBe(false);
  });
});
