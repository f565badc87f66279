#!/usr/bin/env node
/**
 * Bundles @tern/core's compiled files (what `tsc -b` wrote to packages/core/dist) into one
 * CommonJS file, `dist/bundle/tern.js`, and writes one small entry file per export of the
 * package (`dist/bundle/index.js`, `dist/bundle/routing.js`…) that hands out its part of it.
 *
 * Why: Node resolves, reads and wraps every module on its own. Tern is ~160 small files, and
 * loading them one by one took ~45 ms of every start; the same code as one file loads in ~25 ms.
 * Every entry reads from the same bundle, so `@tern/core` and `@tern/core/routing` share one
 * copy of each class (`instanceof` holds across them). Dependencies stay `require`d from
 * node_modules, and modules Tern loads on first use (send, busboy…) still load then.
 *
 * The per-file output stays in dist: the `.d.ts` files are the package's types, and the bundle's
 * source map points into those files.
 */
import { build } from 'esbuild';
import { readFileSync, writeFileSync, mkdirSync, rmSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkgDir = join(root, 'packages', 'core');
const dist = join(pkgDir, 'dist');
const outDir = join(dist, 'bundle');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));

/** Each export's entry file (`./dist/bundle/routing.js`) and the compiled module it stands for. */
function entries() {
  const out = [];
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target === 'string') continue; // ./package.json
    const match = /^\.\/dist\/bundle\/([a-z-]+)\.js$/.exec(target.default);
    if (!match) throw new Error(`bundle-core: exports["${subpath}"].default must be ./dist/bundle/<name>.js, got ${target.default}`);
    const name = match[1];
    const source = name === 'index' ? 'index.js' : `${name}/index.js`;
    const types = `./dist/${source.replace(/\.js$/, '.d.ts')}`;
    if (target.types !== types) throw new Error(`bundle-core: exports["${subpath}"].types should be ${types}, got ${target.types}`);
    if (!existsSync(join(dist, source))) throw new Error(`bundle-core: dist/${source} is missing; run tsc -b first`);
    out.push({ name, source });
  }
  return out;
}

const list = entries();
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });
const entrySource = `module.exports = {\n${list.map((e) => `  ${JSON.stringify(e.name)}: require(${JSON.stringify(`../${e.source}`)}),`).join('\n')}\n};\n`;
const entryFile = join(outDir, 'entries.js');
writeFileSync(entryFile, entrySource);

await build({
  entryPoints: [entryFile],
  outfile: join(outDir, 'tern.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
  // from-config.ts requires the user's config modules by path, at run time, on purpose.
  logOverride: { 'unsupported-require-call': 'silent' },
});
rmSync(entryFile);

for (const { name } of list) {
  writeFileSync(join(outDir, `${name}.js`), `"use strict";\nmodule.exports = require("./tern.js")[${JSON.stringify(name)}];\n`);
}
console.log(`bundle-core: ${relative(root, join(outDir, 'tern.js'))} (${list.map((e) => e.name).join(', ')})`);
