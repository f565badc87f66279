/**
 * clientTypes(), writeClientTypes() and watchClientTypes(): a typed client's `.d.ts` from the live
 * document, rewritten when it changes. examples/typed-client compiles typed calls of three
 * examples against the output with tsc; `npm run test:packed` does so with TypeScript 7.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Integer, TernApp } from '@tern/core';
import { clientTypes, watchClientTypes, writeClientTypes } from '@tern/core/openapi';

function appWith(extraRoute: boolean): TernApp {
  const app = new TernApp({ logger: false });
  app.get('/tags/{id:int}', { responses: { 200: { id: Integer, name: String } } }, async (req, res, { id }) => ({ id, name: 'tern' }));
  if (extraRoute) app.delete('/tags/{id:int}', { statusCode: 204 }, async (req, res) => res.status(204));
  return app;
}

describe('clientTypes()', () => {
  it('writes paths with their operations, parameters and answers in the shape openapi-fetch reads', async () => {
    const text = clientTypes((await appWith(false).inject('/openapi.json')).json());
    expect(text).toContain('export interface paths {');
    expect(text).toMatch(/"\/tags\/\{id\}": \{\n {4}parameters: \{/);
    expect(text).toMatch(/path: \{\n\s+id: number;/);
    expect(text).toContain('post?: never;');
    expect(text).toMatch(/200: \{\n\s+headers: \{\n\s+\[name: string\]: unknown;\n\s+\};\n\s+content: \{\n\s+"application\/json": /);
    expect(text).toContain('export interface components {');
    expect(text).toContain('export interface operations {');
  });
});

describe('writeClientTypes() and watchClientTypes() from a live document', () => {
  let server: Server;
  let url: string;
  let document: object;
  const dir = mkdtempSync(join(tmpdir(), 'tern-client-types-'));
  const file = join(dir, 'api.d.ts');

  beforeAll(async () => {
    document = (await appWith(false).inject('/openapi.json')).json();
    server = createServer((req, res) => res.setHeader('content-type', 'application/json').end(JSON.stringify(document)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/openapi.json`;
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the file once and leaves it alone while the document is the same', async () => {
    expect(await writeClientTypes(url, file)).toBe(true);
    expect(await writeClientTypes(url, file)).toBe(false);
    expect(readFileSync(file, 'utf8')).toContain('delete?: never;');
  });

  it('rewrites the file when the live document changes, until stopped', async () => {
    const writes: string[] = [];
    const stop = watchClientTypes(url, file, { intervalMs: 20, onWrite: (written) => writes.push(written) });
    try {
      document = (await appWith(true).inject('/openapi.json')).json();
      for (let i = 0; i < 3000 && writes.length === 0; i++) await sleep(20);
      expect(writes).toEqual([file]);
      expect(readFileSync(file, 'utf8')).not.toContain('delete?: never;');
    } finally {
      stop();
    }
  });
});
