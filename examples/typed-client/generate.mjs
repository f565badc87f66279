#!/usr/bin/env node
/**
 * Writes TypeScript types for a typed client (openapi-fetch) from a Tern app's OpenAPI document,
 * with openapi-typescript (docs/client.md). The input is the document's URL on a running app or a
 * saved JSON file; several input/output pairs may follow each other.
 *
 *   node examples/typed-client/generate.mjs http://127.0.0.1:3000/openapi.json src/api.ts
 *   node examples/typed-client/generate.mjs openapi.json src/api.ts
 *
 * The one change to openapi-typescript's defaults: a file (`format: binary`, which Tern writes
 * for every upload field) is typed `Blob` instead of `string`, so a multipart body is built from
 * real files. openapi-typescript is ESM-only in practice (its dependencies are), hence `.mjs`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));

/** The document at `input`: a URL is fetched, anything else is read as a JSON file. */
async function documentAt(input) {
  if (/^https?:\/\//.test(input)) {
    const response = await fetch(input);
    if (!response.ok) throw new Error(`${input} answered ${response.status}`);
    return response.json();
  }
  return JSON.parse(readFileSync(input, 'utf8'));
}

export async function generate(input, output) {
  const ast = await openapiTS(await documentAt(input), {
    transform(schema) {
      if (schema.format === 'binary') return BLOB;
      return undefined;
    },
  });
  writeFileSync(output, astToString(ast));
}

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error('usage: node generate.mjs <document URL or file> <output .ts> [<input> <output>]...');
  process.exit(2);
}
for (let i = 0; i < pairs.length; i += 2) await generate(pairs[i], pairs[i + 1]);
