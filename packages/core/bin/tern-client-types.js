#!/usr/bin/env node
/**
 * tern-client-types <url|openapi.json> <out.d.ts> [--watch] [--interval ms]
 *
 * Writes a typed client's types (paths, operations, components: what openapi-fetch reads) from an
 * OpenAPI document, without the TypeScript compiler, so it runs beside TypeScript 7. With
 * --watch it rewrites the file whenever the live document changes (docs/client.md).
 */
'use strict';
const { watchClientTypes, writeClientTypes } = require('../dist/bundle/openapi.js');

const args = process.argv.slice(2);
const watch = args.includes('--watch');
const intervalAt = args.indexOf('--interval');
const intervalMs = intervalAt === -1 ? 1000 : Number(args[intervalAt + 1]);
const [source, file] = args.filter((arg, i) => !arg.startsWith('--') && (intervalAt === -1 || i !== intervalAt + 1));

if (!source || !file || !Number.isFinite(intervalMs)) {
  console.error('usage: tern-client-types <url|openapi.json> <out.d.ts> [--watch] [--interval ms]');
  process.exit(2);
}

if (watch) {
  let lastError = '';
  watchClientTypes(source, file, {
    intervalMs,
    onWrite: () => console.log(`${new Date().toISOString()} wrote ${file}`),
    onError: (err) => {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== lastError) console.error(`waiting for ${source}: ${message}`);
      lastError = message;
    },
  });
} else {
  writeClientTypes(source, file).then(
    (changed) => console.log(changed ? `wrote ${file}` : `${file} is up to date`),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
