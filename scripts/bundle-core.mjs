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
 * Every entry reads from the same bundle, so `@tern/core` and `@tern/core/routing` share one
 * copy of each class (`instanceof` holds across them). Dependencies stay `require`d from
 * node_modules, and modules Tern loads on first use (send, busboy…) still load then.
 */
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'packages', 'core');
const dist = join(pkgDir, 'dist');
const outDir = join(dist, 'bundle');
const src = join(pkgDir, 'src');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

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

const list = entries();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
// One module whose exports are the namespaces of the package's entries: `export * as routing`
// keeps each entry's own list of names, and every entry shares the modules underneath.
const entrySource = list.map((e) => `export * as ${identifier(e.name)} from ${JSON.stringify(`./${e.source}`)};`).join('\n');

await build({
  stdin: { contents: entrySource, resolveDir: src, sourcefile: 'entries.ts', loader: 'ts' },
  tsconfig: join(pkgDir, 'tsconfig.json'),
  outfile: join(outDir, 'tern.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  // The map carries the sources: the package ships dist, not src.
  sourcemap: true,
  sourcesContent: true,
  logLevel: 'warning',
  // from-config.ts requires the user's config modules by path, at run time, on purpose.
  logOverride: { 'unsupported-require-call': 'silent' },
});

for (const { name } of list) {
  // A plain copy of the namespace: esbuild's namespaces are getters, and a test's
  // `jest.spyOn(require('@tern/core'), …)` needs data properties, as tsc's output had.
  const part = `require("./tern.js")[${JSON.stringify(identifier(name))}]`;
  writeFileSync(join(outDir, `${name}.js`), `"use strict";\nmodule.exports = Object.defineProperty({ ...${part} }, "__esModule", { value: true });\n`);
}
console.log(`bundle-core: ${relative(root, join(outDir, 'tern.js'))} (${list.map((e) => e.name).join(', ')})`);
