/**
 * Loads `dist/bundle/tern.js` as `require` would, through V8's code cache.
 *
 * Why: compiling the ~580 KB bundle, and then the functions a start runs, is a quarter of what
 * Tern adds to a process's start (issue 27). Node 22 can cache compiled code itself
 * (`NODE_COMPILE_CACHE`), Node 20 cannot, so Tern caches its own bundle: the first start writes
 * V8's cached data once the first app is ready; later starts of the same bundle on the same Node
 * skip most of the compiling. Only Tern's bundle is cached; nothing else in the process is
 * touched. The user's choices come first: `TERN_COMPILE_CACHE=off`, Node's own compile cache,
 * source maps and test runners' module sandboxes (jest) all mean a plain `require`.
 *
 * This file is not part of the bundle: scripts/bundle-core.mjs builds it to
 * `dist/bundle/load.js`, which the entry files call. Every failure (no writable folder, a
 * rejected or unreadable cache) falls back to compiling as usual; the cache can only make a
 * start faster, never change what runs.
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vm from 'node:vm';

/** What the bundle exports for its loader (src/lifecycle/first-ready.ts, as `__loader`). */
interface LoaderHooks {
  onFirstReady(listener: () => void): void;
}

const OFF = new Set(['0', 'off', 'false', 'no']);

/**
 * The folder of cache files, or undefined for none: `TERN_COMPILE_CACHE` (a folder, or `off`),
 * else `tern-compile-cache-<uid>` in the OS temporary folder. None either when Node caches
 * compiled code itself (Node 22's `NODE_COMPILE_CACHE`), or when source maps are on: code run
 * from a `vm.Script` gets no source map, and stacks would point into the bundle.
 */
function compileCacheDir(): string | undefined {
  const setting = process.env.TERN_COMPILE_CACHE?.trim();
  if (setting !== undefined && OFF.has(setting.toLowerCase())) return undefined;
  if (process.sourceMapsEnabled || !inMainContext()) return undefined;
  if ((Module as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.()) return undefined;
  if (setting) return path.resolve(setting);
  const uid = process.getuid?.() ?? os.userInfo().username;
  return path.join(os.tmpdir(), `tern-compile-cache-${uid}`);
}

/**
 * Whether this code runs in Node's main context. Jest runs tests (and the modules they load) in a
 * `vm` context of their own, with its own `require`: `runInThisContext` would compile the bundle
 * in the main context instead, where its objects and its dependencies (class-validator…) would
 * not be the test's.
 */
function inMainContext(): boolean {
  return vm.runInThisContext('globalThis') === globalThis;
}

/**
 * Creates `dir` (mode 0700) and says whether it is safe to run cached code from: a real folder
 * (not a link), owned by this user, that nobody else can write to. Cached data is run as code,
 * and V8 checks only its length against the source, so a folder another user could write to
 * (a shared temporary folder planted in advance) is not used.
 */
function privateDir(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/**
 * What the cached data depends on besides the bundle: V8's version, the CPU architecture and the
 * flags Node was started with. `v8.cachedDataVersionTag()` says it exactly, but loading `node:v8`
 * costs ~5 ms of every start (it loads the heap-snapshot streams); V8 checks its version and
 * flags in the data anyway, so a flag set another way (`v8.setFlagsFromString`) can only cost a
 * rejected cache and a rewrite, never run code compiled for other flags.
 */
function runtimeKey(): string {
  // Only the flags, not their separate values (the code of `node -e`, a `--require` path).
  const flags = `${process.execArgv.filter((arg) => arg.startsWith('-')).join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  // FNV-1a, 32 bits: a short stable name for the flags (node:crypto would cost more than it saves).
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `${process.versions.v8}-${process.arch}-${(hash >>> 0).toString(16)}`;
}

function readCache(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Writes next to the final name, then renames: concurrent starts never read half a file. */
function writeCache(file: string, data: Buffer): void {
  const partial = `${file}.${process.pid}.partial`;
  try {
    fs.writeFileSync(partial, data, { mode: 0o600 });
    fs.renameSync(partial, file);
  } catch {
    fs.rmSync(partial, { force: true });
  }
}

/**
 * The bundle's exports, loaded once per process (later calls, from other entry files, get the
 * same module from `require.cache`). `buildId` names the build (a hash of the bundle written by
 * the build into the entry files); with the file's size and modification time and the runtime
 * (V8's version, the architecture, Node's flags) it keys the cache file, so an edited bundle
 * never runs stale code.
 *
 * @example
 * // dist/bundle/index.js, as the build writes it (with the load.js next to it):
 * const part = loadBundle(path.join(__dirname, 'tern.js'), '3f2a9c0d1e7b5a64')['index'];
 */
export function loadBundle(file: string, buildId: string): Record<string, unknown> {
  const loaded = require.cache[file];
  if (loaded) return loaded.exports as Record<string, unknown>;
  const dir = compileCacheDir();
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (dir === undefined || !privateDir(dir)) return require(file) as Record<string, unknown>;

  const source = fs.readFileSync(file, 'utf8');
  const stat = fs.statSync(file);
  const key = `${path.basename(file, '.js')}-${buildId}-${stat.size}-${Math.trunc(stat.mtimeMs)}-${runtimeKey()}`;
  const cacheFile = path.join(dir, `${key}.bin`);
  const cachedData = readCache(cacheFile);
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });

  // A module like the one `require` makes, registered first so the entry files share it.
  const mod = new Module(file, module);
  mod.filename = file;
  require.cache[file] = mod;
  try {
    const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
    wrapper.call(mod.exports, mod.exports, Module.createRequire(file), mod, file, path.dirname(file));
  } catch (err) {
    delete require.cache[file];
    throw err;
  }
  mod.loaded = true;

  if (cachedData === undefined || script.cachedDataRejected) {
    const hooks = (mod.exports as { __loader?: LoaderHooks }).__loader;
    hooks?.onFirstReady(() => writeCache(cacheFile, script.createCachedData()));
  }
  return mod.exports as Record<string, unknown>;
}
