import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildOpenAPIDocument } from '@tern/core';
import { buildApp } from './app';

/**
 * What a client generator makes of this example's document: openapi-typescript (its CLI; the
 * package is ESM-only, so it runs in its own process) writes the types, and `tsc` checks a typed
 * call of every operation against them, problem bodies included. A problem body typed `any` or
 * `unknown` would fail: the `@ts-expect-error` lines need real types to err on.
 */
type Schema = { $ref?: string; type?: string | string[]; enum?: unknown[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[] };
type Document = {
  paths: Record<string, Record<string, { operationId: string; parameters?: Array<{ name: string; in: string; required?: boolean; schema: Schema }>; requestBody?: { content: Record<string, { schema?: Schema }> }; responses: Record<string, { content?: Record<string, unknown> }> }>>;
  components: { schemas: Record<string, Schema> };
};

const root = join(__dirname, '..', '..');
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const node = (args: string[], cwd: string) => spawnSync(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000 });

/** A value of the schema's type: enough for the type checker, not for the validators. */
function sample(schema: Schema | undefined, document: Document): unknown {
  if (!schema) return {};
  if (schema.$ref) return sample(document.components.schemas[schema.$ref.split('/').pop() as string], document);
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) return sample(schema.anyOf[0], document);
  const type = [schema.type].flat()[0];
  if (type === 'integer' || type === 'number') return 1;
  if (type === 'boolean') return true;
  if (type === 'string') return 'text';
  if (type === 'array') return [];
  const out: Record<string, unknown> = {};
  for (const name of schema.required ?? []) out[name] = sample(schema.properties?.[name], document);
  return out;
}

/** One typed call per operation, then a typed read of every problem body it documents. */
function callsOf(document: Document): string {
  const lines: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const params: Record<string, Record<string, unknown>> = {};
      for (const p of operation.parameters ?? []) if (p.required) (params[p.in] ??= {})[p.name] = sample(p.schema, document);
      const body = operation.requestBody ? sample(operation.requestBody.content['application/json']?.schema, document) : undefined;
      lines.push(`  {`, `    const r = await call(${JSON.stringify(path)}, ${JSON.stringify(method)}, ${JSON.stringify(params)}, ${JSON.stringify(body)});`);
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!response.content?.['application/problem+json']) continue;
        lines.push(`    if (r.status === ${status}) {`, `      const title: string = r.body.title;`, `      const code: string | undefined = r.body.code;`);
        if (status === '422') lines.push(`      const first: { path: string; message: string } | undefined = r.body.errors?.[0];`);
        lines.push(`      // @ts-expect-error a problem has no such field`, `      void r.body.notAField;`, `      void title; void code;`, `    }`);
      }
      lines.push(`    void r;`, `  }`);
    }
  }
  return lines.join('\n');
}

const CLIENT = `import type { paths } from './api';

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'head' | 'options' | 'trace';
type Op<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;
type Params<O> = O extends { parameters: infer X } ? X : never;
type Body<O> = O extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;
type Responses<O> = O extends { responses: infer R } ? R : never;
type Content<R> = R extends { content: infer C } ? C[keyof C] : undefined;
/** Each documented status with the body it carries: narrowing on \`status\` types \`body\`. */
type Answer<O> = { [S in keyof Responses<O>]: { status: S; body: Content<Responses<O>[S]> } }[keyof Responses<O>];

declare function call<P extends keyof paths, M extends Method>(path: P, method: M, params: Params<Op<P, M>>, body: Body<Op<P, M>>): Promise<Answer<Op<P, M>>>;
`;

describe('a client generated from the notes document', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tern-client-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('type-checks a call of every operation, with typed 400, 404 and 422 problem bodies', async () => {
    const app = buildApp();
    await app.ready();
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig) as unknown as Document;
    const statuses = Object.values(document.paths).flatMap((item) => Object.values(item).flatMap((op) => Object.keys(op.responses)));
    expect(statuses).toEqual(expect.arrayContaining(['400', '404', '422']));
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(document));

    const generated = node([join(root, 'node_modules', 'openapi-typescript', 'bin', 'cli.js'), 'openapi.json', '-o', 'api.ts'], dir);
    expect([generated.status, generated.stderr]).toEqual([0, expect.any(String)]);
    writeFileSync(join(dir, 'client.ts'), `${CLIENT}\nexport async function everyOperation(): Promise<void> {\n${callsOf(document)}\n}\n`);

    const tsc = node([TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--skipLibCheck', 'client.ts'], dir);
    expect(tsc.stdout + tsc.stderr).toBe('');
    expect(tsc.status).toBe(0);

    // The check has teeth: a wrong body for an operation is a type error.
    writeFileSync(join(dir, 'wrong.ts'), `${CLIENT}\nexport async function wrong(): Promise<void> {\n  await call('/notes', 'post', {}, { title: 42 });\n}\n`);
    const refused = node([TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'commonjs', '--skipLibCheck', 'wrong.ts'], dir);
    expect(refused.stdout).toMatch(/wrong\.ts.*error TS2322/);
  });
});
