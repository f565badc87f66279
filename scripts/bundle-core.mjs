#!/usr/bin/env node
/**
 * Bundles @tern/core's TypeScript sources into one CommonJS file, `dist/bundle/tern.js`, and
 * writes one small entry file per export of the package (`dist/bundle/index.js`,
 * `dist/bundle/routing.js`…) that hands out its part of it.
 *
 * Why one file: Node resolves, reads and wraps every module on its own. Tern is ~160 small
 * files, and loading them one by one took ~45 ms of every start.
 *
 * Why from the sources, not from tsc's per-file output: esbuild then joins the modules into one
 * scope (ES module bundling), with no per-module wrapper function and no `exports.x` indirection
 * between them. The same code loads in ~20 ms instead of ~29 ms. Core's sources use no decorators
 * and no const enums (isolatedModules), so esbuild's transpiling and tsc's agree; esbuild reads
 * the same tsconfig (ES2022 class fields). The per-file output of `tsc -b` stays in dist for the
 * `.d.ts` files, which are the package's types.
 *
 * The entries load the bundle through `dist/bundle/load.js` (src/compile-cache/load-bundle.ts),
 * which keeps V8's compiled code for it between starts: docs/deployment.md, "Start-up and the
 * compile cache".
 *
 * Every entry reads from the same bundle, so `@tern/core` and `@tern/core/routing` share one
 * copy of each class (`instanceof` holds across them). Dependencies stay `require`d from
 * node_modules, and modules Tern loads on first use (send, busboy…) still load then.
 *
 * One exception: find-my-way, the router, is compiled into the bundle (`BUNDLED`), with the one
 * dependency it needs as it loads (fast-deep-equal). Users never import it from Tern, so the copy
 * is Tern's own; as a package of its own it brought ~16 ms of module loading to every start.
 * Its two other dependencies are not needed at start (`ON_FIRST_CALL`): inside the bundle it
 * reaches them through the small shims in scripts/bundle-shims/, which `require` the real
 * package, a dependency of @tern/core, on first call. The bundled packages are devDependencies
 * of @tern/core pinned exactly (the bundle is built from them), and their licences are written
 * to `dist/bundle/THIRD-PARTY-NOTICES.txt`, which ships with the package.
 *
 * The build ends by loading `@tern/core` as users do (`index.js`, through the loader) in a fresh
 * process: a start must load none of what Tern defers (`NOT_AT_LOAD`, `BUILTINS_NOT_AT_LOAD`),
 * ESM-only packages (`ESM_ONLY`) included.
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'packages', 'core');
const dist = join(pkgDir, 'dist');
const outDir = join(dist, 'bundle');
const src = join(pkgDir, 'src');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const shims = join(root, 'scripts', 'bundle-shims');

/** Packages compiled into tern.js; every other package is `require`d from node_modules. */
const BUNDLED = ['find-my-way', 'fast-deep-equal'];
/** What the bundled packages require but a start does not need: the shim each is reached through. */
const ON_FIRST_CALL = { 'safe-regex2': 'safe-regex2.cjs', 'fast-querystring': 'fast-querystring.cjs' };
/**
 * ESM-only dependencies: kept out of the bundle like every package, and reached only through a
 * real `import()` on first use (jose: src/security/jose.ts), in `esm-import.js` (`BESIDE`). An
 * ES module loaded that way is not in `require.cache`, so the load check below also watches the
 * ES module loader's resolutions.
 */
const ESM_ONLY = ['jose'];
/**
 * Packages loading the bundle must not load (checked in a fresh process after the build): what
 * it holds a copy of, what those require on first call, and Tern's own dependencies that only
 * some requests need, which its sources load on first use.
 */
const NOT_AT_LOAD = [...BUNDLED, ...Object.keys(ON_FIRST_CALL), 'cookie', 'secure-json-parse', 'fast-content-type-parse', 'encodeurl', ...ESM_ONLY];
/**
 * Node builtins loading `@tern/core` must not load either: those Tern's sources load on first use
 * (compression, signing, class-validator's probe), and `v8`, which the bundle's loader once
 * loaded for a cache key at ~5 ms a start.
 */
const BUILTINS_NOT_AT_LOAD = ['crypto', 'inspector', 'v8', 'zlib'];

/** Each export's entry file (`./dist/bundle/routing.js`) and the compiled module it stands for. */
function entries() {
  const out = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const match = /^\.\/dist\/bundle\/([a-z-]+)\.js$/.exec(target.default);
    if (!match) throw new Error(`bundle-core: exports["${subpath}"].default must be ./dist/bundle/<name>.js, got ${target.default}`);
    const name = match[1];
    const source = name === 'index' ? 'index' : `${name}/index`;
    const types = `./dist/${source}.d.ts`;
    if (target.types !== types) throw new Error(`bundle-core: exports["${subpath}"].types should be ${types}, got ${target.types}`);
    if (!existsSync(join(src, `${source}.ts`))) throw new Error(`bundle-core: src/${source}.ts is missing`);
    out.push({ name, source });
  }
  return out;
}

/** The export name of an entry's namespace (`index`, `routing`; a dash would not be an identifier). */
function identifier(name) {
  return name.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
}

/** `@scope/name` or `name` of a bare specifier (`find-my-way/lib/x` → `find-my-way`). */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The bundled packages are the ones @tern/core pins exactly in its devDependencies, at the
 * version installed: the package.json says what the bundle holds.
 */
function checkBundledPins() {
  const requireFromCore = createRequire(join(pkgDir, 'package.json'));
  for (const name of BUNDLED) {
    const installed = JSON.parse(readFileSync(requireFromCore.resolve(`${name}/package.json`), 'utf8')).version;
    const pinned = pkg.devDependencies?.[name];
    if (pinned !== installed) throw new Error(`bundle-core: ${name} ${installed} is bundled; @tern/core's devDependencies must pin "${name}": "${installed}" (has ${pinned})`);
    if (pkg.dependencies?.[name]) throw new Error(`bundle-core: ${name} is bundled, so it is not a dependency of @tern/core`);
  }
  for (const name of Object.keys(ON_FIRST_CALL)) {
    if (!pkg.dependencies?.[name]) throw new Error(`bundle-core: the bundle requires ${name} on first use, so it must be a dependency of @tern/core`);
  }
}

/**
 * The regular expressions find-my-way hands safe-regex2 as it loads (its own constants), each
 * found safe by the real safe-regex2: its shim answers these without loading it. Recorded by
 * loading the installed find-my-way with safe-regex2's export wrapped; an unsafe one makes
 * find-my-way throw here, as it would at load.
 */
function findMyWayLoadChecks() {
  const requireFromCore = createRequire(join(pkgDir, 'package.json'));
  const requireFromRouter = createRequire(requireFromCore.resolve('find-my-way'));
  const safeRegex = requireFromRouter('safe-regex2');
  const cached = requireFromRouter.cache[requireFromRouter.resolve('safe-regex2')];
  const checked = [];
  cached.exports = (re, opts) => {
    const safe = safeRegex(re, opts);
    if (safe && opts === undefined && re instanceof RegExp) checked.push(String(re));
    return safe;
  };
  try {
    requireFromRouter('find-my-way');
  } finally {
    cached.exports = safeRegex;
  }
  return checked;
}

/**
 * Sources built to files of their own beside the bundle, which it `require`s: code that must run
 * outside the bundle's `vm.Script` (an `import()` there has no loader).
 */
const BESIDE = { './esm-import': join(src, 'security', 'esm-import.ts') };

/** Bundles `BUNDLED`, routes `ON_FIRST_CALL` through its shim, leaves every other package external. */
const packaging = {
  name: 'tern-packaging',
  setup(builder) {
    builder.onResolve({ filter: /^\.\/esm-import$/ }, (args) => {
      if (join(args.resolveDir, `${args.path}.ts`) !== BESIDE[args.path]) return undefined;
      return { path: `${args.path}.js`, external: true };
    });
    builder.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = packageName(args.path);
      // The shim's own `require` of the real package.
      if (args.importer.startsWith(shims)) return { external: true };
      if (ON_FIRST_CALL[name]) return { path: join(shims, ON_FIRST_CALL[name]) };
      if (BUNDLED.includes(name)) return undefined;
      return { external: true };
    });
  },
};

/** Each bundled package's name, version and licence text, from the build's list of inputs. */
function thirdPartyNotices(metafile) {
  const dirs = new Set();
  for (const input of Object.keys(metafile.inputs)) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) dirs.add(match[1]);
  }
  const sections = [];
  for (const dir of [...dirs].sort()) {
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    if (!BUNDLED.includes(manifest.name)) throw new Error(`bundle-core: ${manifest.name} ended up in the bundle but is not in BUNDLED`);
    const licenceFile = readdirSync(join(root, dir)).find((file) => /^licen[sc]e/i.test(file));
    if (!licenceFile) throw new Error(`bundle-core: ${manifest.name} has no licence file to copy`);
    const text = readFileSync(join(root, dir, licenceFile), 'utf8').trim();
    sections.push(`${manifest.name}@${manifest.version} (${manifest.license})\n${manifest.homepage ?? ''}\n\n${text}`);
  }
  const rule = '-'.repeat(72);
  return `@tern/core's dist/bundle/tern.js contains the following third-party packages, each under\nits own licence, reproduced here.\n\n${rule}\n${sections.join(`\n${rule}\n`)}\n`;
}

checkBundledPins();
const loadChecks = findMyWayLoadChecks();
const list = entries();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
// One module whose exports are the namespaces of the package's entries: `export * as routing`
// keeps each entry's own list of names, and every entry shares the modules underneath.
// `__loader` is for dist/bundle/load.js only (it is no entry's, so no user reaches it).
const entrySource = [
  ...list.map((e) => `export * as ${identifier(e.name)} from ${JSON.stringify(`./${e.source}`)};`),
  `export * as __loader from './lifecycle/first-ready';`,
].join('\n');

const result = await build({
  stdin: { contents: entrySource, resolveDir: src, sourcefile: 'entries.ts', loader: 'ts' },
  tsconfig: join(pkgDir, 'tsconfig.json'),
  outfile: join(outDir, 'tern.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  plugins: [packaging],
  // A string (JSON), as esbuild inlines a string; an array would be a module of its own.
  define: { FIND_MY_WAY_LOAD_CHECKS: JSON.stringify(JSON.stringify(loadChecks)) },
  banner: { js: '// Tern (@tern/core). Bundled third-party code and its licences: THIRD-PARTY-NOTICES.txt next to this file.' },
  metafile: true,
  absWorkingDir: root,
  // The map carries the sources: the package ships dist, not src.
  sourcemap: true,
  sourcesContent: true,
  logLevel: 'warning',
  // from-config.ts requires the user's config modules by path, at run time, on purpose.
  logOverride: { 'unsupported-require-call': 'silent' },
});
writeFileSync(join(outDir, 'THIRD-PARTY-NOTICES.txt'), thirdPartyNotices(result.metafile));

// The loader the entry files call (src/compile-cache/load-bundle.ts: V8's code cache for
// tern.js), and the build's id, which keys its cache files.
await build({
  entryPoints: [join(src, 'compile-cache', 'load-bundle.ts')],
  tsconfig: join(pkgDir, 'tsconfig.json'),
  outfile: join(outDir, 'load.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  logLevel: 'warning',
});
for (const [specifier, source] of Object.entries(BESIDE)) {
  await build({ entryPoints: [source], tsconfig: join(pkgDir, 'tsconfig.json'), outfile: join(outDir, `${specifier.slice(2)}.js`), bundle: true, platform: 'node', target: 'node20', format: 'cjs', packages: 'external', logLevel: 'warning' });
}
const buildId = createHash('sha256').update(readFileSync(join(outDir, 'tern.js'))).digest('hex').slice(0, 16);

// Each entry file assigns every name on its own line (`exports.TernApp = part.TernApp;`): Node's
// CommonJS export detection (cjs-module-lexer) reads exactly that form, so ESM projects can
// `import { TernApp } from '@tern/core'` by name. A spread or a computed copy would show Node no
// names at all. Data properties, as tsc's output had, so `jest.spyOn(require('@tern/core'), …)`
// works too. The names are read from the bundle just built, so the lists cannot drift.
const bundle = createRequire(import.meta.url)(join(outDir, 'tern.js'));
for (const { name } of list) {
  const namespace = identifier(name);
  const names = Object.keys(bundle[namespace]).sort();
  for (const exported of names) {
    if (!/^[A-Za-z_$][\w$]*$/.test(exported) || exported === '__esModule') throw new Error(`bundle-core: ${name} exports "${exported}", not an identifier`);
  }
  const lines = [
    '"use strict";',
    `// Generated by scripts/bundle-core.mjs: the names of @tern/core's "${name}" entry, one by one.`,
    `const part = require("./load.js").loadBundle(require("node:path").join(__dirname, "tern.js"), ${JSON.stringify(buildId)})[${JSON.stringify(namespace)}];`,
    'Object.defineProperty(exports, "__esModule", { value: true });',
    ...names.map((exported) => `exports.${exported} = part.${exported};`),
  ];
  writeFileSync(join(outDir, `${name}.js`), `${lines.join('\n')}\n`);
}

// Loading @tern/core as users do (an entry file, through load.js's compile cache) must load none of
// NOT_AT_LOAD and BUILTINS_NOT_AT_LOAD: asked of a fresh process, since this one loaded find-my-way
// above, with a compile-cache folder of its own.
const cacheDir = mkdtempSync(join(tmpdir(), 'tern-bundle-check-'));
try {
  // A resolve hook reports every specifier the ES module loader resolves (what `import()` loads);
  // the probe waits a moment for an `import()` started at load, then proves the hook works by
  // importing jose itself.
  const hooks = `let port; export function initialize(data) { port = data.port; }
export async function resolve(specifier, context, next) { const resolved = await next(specifier, context); port.postMessage(resolved.url); return resolved; }`;
  const probe = `const { register } = require('node:module'); const { MessageChannel } = require('node:worker_threads');
const { port1, port2 } = new MessageChannel(); const imported = []; port1.on('message', (url) => imported.push(url));
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)}, { data: { port: port2 }, transferList: [port2] });
const before = new Set(process.moduleLoadList); require(${JSON.stringify(join(outDir, 'index.js'))});
const builtins = process.moduleLoadList.filter((m) => !before.has(m)); const files = Object.keys(require.cache);
setTimeout(async () => {
  const atLoad = [...imported];
  await import(require('node:url').pathToFileURL(require.resolve('jose', { paths: [${JSON.stringify(pkgDir)}] })).href);
  await new Promise((resolve) => setTimeout(resolve, 50));
  port1.close();
  process.stdout.write(JSON.stringify({ files, builtins, imported: atLoad, control: imported.slice(atLoad.length) }));
}, 200);`;
  const loaded = JSON.parse(execFileSync(process.execPath, ['-e', probe], { encoding: 'utf8', env: { ...process.env, TERN_COMPILE_CACHE: cacheDir } }));
  if (!loaded.control.some((url) => url.includes('/node_modules/jose/'))) throw new Error('bundle-core: the load check did not see an ES module import; it cannot vouch for ESM_ONLY');
  for (const name of ESM_ONLY) {
    const url = loaded.imported.find((u) => u.includes(`/node_modules/${name}/`));
    if (url) throw new Error(`bundle-core: loading @tern/core imports ${url}`);
  }
  for (const name of NOT_AT_LOAD) {
    const file = loaded.files.find((path) => path.includes(`/node_modules/${name}/`));
    if (file) throw new Error(`bundle-core: loading @tern/core loads ${file}`);
  }
  for (const name of BUILTINS_NOT_AT_LOAD) {
    if (loaded.builtins.includes(`NativeModule ${name}`)) throw new Error(`bundle-core: loading @tern/core loads node:${name}`);
  }
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
}
console.log(`bundle-core: ${relative(root, join(outDir, 'tern.js'))} (${list.map((e) => e.name).join(', ')})`);
