/**
 * Typed clients of the controllers, responses and uploads examples (docs/client.md): for each,
 * openapi-typescript generates types from the document the running app serves, `tsc --strict`
 * compiles a typed openapi-fetch call of every operation against them (and refuses a wrong body
 * or a wrong field), and the calls run against the app on a real port. Every answer, problem
 * bodies and multipart uploads included, is then checked against the document it was generated
 * from with `checkResponse`, the contract check's own rules: no mismatch.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TernApp } from '@tern/core';
import { clientTypes } from '@tern/core/openapi';
import { checkResponse } from '@tern/core/testing';
import { buildApp as controllersApp } from '../controllers/app';
import { buildApp as responsesApp } from '../responses/app';
import { buildApp as uploadsApp } from '../uploads/app';
import { Recorder } from './recorder';

const root = join(__dirname, '..', '..');
const TSC = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

type Calls = { callEveryOperation(baseUrl: string, recorder: Recorder): Promise<Record<string, unknown>> };
type Document = { paths: Record<string, Record<string, unknown>> };

const EXAMPLES: Array<[name: string, build: () => TernApp]> = [
  ['controllers', () => controllersApp()],
  ['responses', () => responsesApp()],
  ['uploads', () => uploadsApp()],
];

/** What each example's calls must get: problems (401, 403, 404, 409, 422) and uploads among them. */
const EXPECTED: Record<string, { statuses: string[]; values: Record<string, unknown> }> = {
  controllers: {
    statuses: [
      '200 GET /health',
      '200 GET /api/v1/users',
      '201 POST /api/v1/users',
      '409 POST /api/v1/users',
      '401 POST /api/v1/users',
      '200 GET /api/v1/users/{id}',
      '404 GET /api/v1/users/{id}',
      '200 GET /api/v1/posts',
      '201 POST /api/v1/posts',
      '422 POST /api/v1/posts',
      '200 GET /api/v1/posts/{id}',
      '404 GET /api/v1/posts/{id}',
      '200 PATCH /api/v1/posts/{id}',
      '403 PATCH /api/v1/posts/{id}',
      '204 DELETE /api/v1/posts/{id}',
      '404 DELETE /api/v1/posts/{id}',
      '200 GET /api/v2/users',
      '422 GET /api/v2/users',
      '200 GET /api/v2/users/me',
      '401 GET /api/v2/users/me',
      '200 GET /api/v2/users/{id}',
      '404 GET /api/v2/users/{id}',
      '200 GET /api/v2/posts',
    ],
    values: {
      health: 'ok',
      userNames: ['Ada Lovelace', 'Grace Hopper'],
      createdUser: 3,
      takenDetail: 'edsger@example.com is already registered.',
      unsignedStatus: 401,
      user: 'Ada Lovelace',
      noUserTitle: 'Not Found',
      postTitles: ['Compilers for everyone'],
      postCreatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      untitledFields: ['title'],
      readTags: ['types'],
      noPostStatus: 404,
      editedTitle: 'On typed clients, again',
      notMineDetail: 'Only the author can change a post.',
      deletedStatus: 204,
      deletedTwiceTitle: 'Not Found',
      pageTotal: 3,
      pageEmails: ['ada@example.com'],
      tooManyFields: ['limit'],
      mePostCount: 1,
      nobodyStatus: 401,
      userV2Email: 'grace@example.com',
      noUserV2Instance: '/api/v2/users/404',
      postPageAuthors: [1, 2],
    },
  },
  responses: {
    statuses: ['200 GET /auth/me', '200 GET /admin/export', '200 GET /users', '200 GET /users/{id}', '404 GET /users/{id}', '422 GET /users/{id}'],
    values: {
      // The wire names, and nothing the models leave out (no passwordHash).
      me: { name: 'Ada', team: 'Engines', keys: ['id', 'email', 'display_name', 'createdAt', 'team'] },
      exportTokens: [null, 'f1e2d3'],
      exportBudgets: [120_000, 95_000],
      userNames: ['Ada', 'Grace'],
      user: { id: 2, name: 'Grace', keys: ['id', 'display_name'] },
      missingDetail: 'No user 3',
      negativeFields: ['id'],
    },
  },
  uploads: {
    statuses: [
      '201 POST /avatars',
      '422 POST /avatars',
      '200 GET /avatars/{id}',
      '404 GET /avatars/{id}',
      '200 POST /imports',
      '200 PUT /imports/raw',
      '201 POST /feedback',
      '201 POST /feedback',
      '422 POST /feedback',
      '401 POST /webhooks/payments',
      '201 POST /photos',
      '422 POST /photos',
      '200 POST /photos/gallery',
    ],
    values: {
      avatar: { size: 12, alt: 'Me' },
      noAvatarFields: "Send the image in the field 'avatar'.",
      described: 'me.png',
      unknownTitle: 'Not Found',
      counts: { 'one.csv': 3, 'two.csv': 1 },
      rawRows: 0,
      feedbackKind: 'idea',
      formEmail: 'grace@example.com',
      badEmailFields: ['email'],
      webhookStatus: 401,
      photo: { title: 'Sunset', year: 2024, size: 12 },
      tooOldFields: ['year'],
      gallery: { count: 2, bytes: 24 },
    },
  },
};

/** A child process that must not block this one: the generator fetches documents from the apps served here. */
function run(args: string[], cwd: string): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, args, { cwd, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, output: stdout + stderr });
    });
  });
}

/** Each call is one line, marked with what is wrong with it: tsc must refuse exactly those lines. */
const WRONG = `import createClient from 'openapi-fetch';
import type { paths as controllers } from './controllers.api';
import type { paths as uploads } from './uploads.api';

const client = createClient<controllers>({ baseUrl: 'http://127.0.0.1' });
const files = createClient<uploads>({ baseUrl: 'http://127.0.0.1' });

export async function wrong(): Promise<void> {
  await client.POST('/api/v1/posts', { body: { title: 42, body: 'a number for a string' } }); // WRONG: title is a string
  await client.POST('/api/v1/users', { body: { name: 'no email' } }); // WRONG: email is required
  await client.GET('/api/v1/users/{id}', { params: { path: { id: 'one' } } }); // WRONG: id is an integer
  const user = await client.GET('/api/v1/users/{id}', { params: { path: { id: 1 } } });
  void user.data?.email; // WRONG: v1 users have no email
  const title: number | undefined = user.error?.title; // WRONG: a problem's title is a string
  await files.POST('/photos', { body: { title: 'x', year: 2024, photo: 'not a file' } }); // WRONG: photo is a Blob
  void title;
}
`;

/**
 * The two ways docs/client.md offers: openapi-typescript (TypeScript 5's compiler API, so not
 * beside TypeScript 7), and Tern's own clientTypes(), plain text that any tsc reads. Each writes
 * `<name>.api.ts` (or `.d.ts`) into `dir` from the served documents; the calls import `./<name>.api`.
 */
type Generator = (dir: string, served: Map<string, { url: string; document: Document }>) => Promise<string>;
const GENERATORS: Array<[name: string, generate: Generator, uploadsFile: string]> = [
  [
    'openapi-typescript (generate.mjs)',
    async (dir, served) => {
      // From the running apps, as a user would: the generator fetches each /openapi.json.
      const generated = await run([join(__dirname, 'generate.mjs'), ...EXAMPLES.flatMap(([name]) => [`${served.get(name)?.url}/openapi.json`, `${name}.api.ts`])], dir);
      if (generated.code !== 0) throw new Error(`generate.mjs failed: ${generated.output}`);
      return 'uploads.api.ts';
    },
    'uploads.api.ts',
  ],
  [
    "Tern's clientTypes()",
    async (dir, served) => {
      for (const [name] of EXAMPLES) writeFileSync(join(dir, `${name}.api.d.ts`), clientTypes(served.get(name)?.document as object));
      return 'uploads.api.d.ts';
    },
    'uploads.api.d.ts',
  ],
];

describe.each(GENERATORS)('typed clients generated from the examples’ documents by %s', (_generator, generate, uploadsFile) => {
  let dir: string;
  const served = new Map<string, { app: TernApp; url: string; document: Document }>();
  let compiled: { code: number; output: string };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tern-typed-client-'));
    // The generated files resolve openapi-fetch and Node's types from the repository's packages.
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [name, build] of EXAMPLES) {
      const app = build();
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const document = (await (await fetch(`${url}/openapi.json`)).json()) as Document;
      served.set(name, { app, url, document });
    }
    await generate(dir, served);
    for (const file of ['recorder.ts', ...EXAMPLES.map(([name]) => `${name}.calls.ts`)]) copyFileSync(join(__dirname, file), join(dir, file));
    writeFileSync(join(dir, 'wrong.ts'), WRONG);
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', lib: ['ES2022'], module: 'node16', moduleResolution: 'node16', esModuleInterop: true, skipLibCheck: true, types: ['node'] }, include: ['*.ts'] }),
    );
    compiled = await run([TSC, '--strict', '--noEmit', '-p', dir], dir);
  });

  afterAll(async () => {
    for (const { app } of served.values()) await app.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** tsc's errors as `file:line`. */
  const errorLines = () => [...compiled.output.matchAll(/^([\w.]+)\((\d+),\d+\): error TS\d+/gm)].map(([, file, line]) => `${file}:${line}`);

  it('compiles a typed call of every operation with tsc --strict', () => {
    expect(errorLines().filter((at) => !at.startsWith('wrong.ts'))).toEqual([]);
    // The generated types are real: no `any` slipped through to make everything compile.
    expect(readFileSync(join(dir, uploadsFile), 'utf8')).toContain('photo: Blob');
  });

  it('refuses a wrong body, a missing field, a wrong parameter, a field the answer lacks and a wrong file', () => {
    const marked = WRONG.split('\n').flatMap((line, index) => (line.includes('// WRONG') ? [`wrong.ts:${index + 1}`] : []));
    expect(marked).toHaveLength(6);
    expect([...new Set(errorLines().filter((at) => at.startsWith('wrong.ts')))]).toEqual(marked);
    expect(compiled.code).not.toBe(0);
  });

  it.each(EXAMPLES)('%s: every answer is what its generated type says', async (name) => {
    const { url, document } = served.get(name) as { url: string; document: Document };
    const recorder = new Recorder();
    // Loaded here, not imported: the file only compiles next to its generated types (tsc did that above).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const calls = require(join(__dirname, `${name}.calls.ts`)) as Calls;
    const seen = await calls.callEveryOperation(url, recorder);

    const operations = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect([...new Set(recorder.answers.map((a) => a.operation))].sort()).toEqual(operations.sort());
    const mismatches = recorder.answers.flatMap((answer) => {
      const [method, path] = answer.operation.split(' ');
      return checkResponse(document, method, path, answer) ?? [];
    });
    expect(mismatches).toEqual([]);
    const { statuses, values } = EXPECTED[name];
    expect(recorder.answers.map((a) => `${a.status} ${a.operation}`)).toEqual(statuses);
    expect(seen).toEqual(values);
  });
});
