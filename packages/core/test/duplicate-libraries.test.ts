/**
 * Two copies of class-transformer (a `file:`-linked @tern/core resolving its own, a nested
 * node_modules): the app's `@Type()` records land in a copy Tern does not read, and nested data
 * would be accepted unchecked. `ready()` must fail with TERN_DUPLICATE_LIBRARY naming both
 * copies, never answer. The packed-tarball check (scripts/packed-install.mjs) does the same
 * with a real install.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { IsObject, IsString, ValidateNested } from 'class-validator';
import { TernApp, TernError } from '@tern/core';
import { findDuplicateLibraries } from '../src/validation/duplicates';

const workspaceCopy = path.dirname(require.resolve('class-transformer/package.json'));
let tempRoot: string;
let otherCopy: string;

beforeAll(() => {
  tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'tern-duplicate-'));
  otherCopy = path.join(tempRoot, 'node_modules', 'class-transformer');
  fs.cpSync(workspaceCopy, otherCopy, { recursive: true });
});

afterAll(() => fs.rmSync(tempRoot, { recursive: true, force: true }));

test('a model decorated through another copy of class-transformer fails ready() naming both copies', async () => {
  // The app's own copy, as its `import { Type } from 'class-transformer'` would load it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Type } = require(otherCopy) as typeof import('class-transformer');
  class Address {
    @IsString() city!: string;
  }
  class Order {
    @IsObject() @ValidateNested() @Type(() => Address) address!: Address;
  }
  const app = new TernApp({ logger: false });
  app.post('/orders', { requestModel: Order }, async (req) => req.body as object);
  const error = await app.ready().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TernError);
  expect((error as TernError).code).toBe('TERN_DUPLICATE_LIBRARY');
  expect((error as TernError).message).toContain(workspaceCopy);
  expect((error as TernError).message).toContain(otherCopy);
  expect((error as TernError).message).toMatch(/peer dependency/);
  expect((error as TernError).message).toMatch(/--install-links/);
  // An app whose startup failed serves nothing, so no request gets a silent wrong answer.
  const res = await new Promise<number>((resolve) => {
    const fakeRes = { statusCode: 0, end: () => resolve(fakeRes.statusCode) };
    app.handler({ url: '/orders', method: 'POST', headers: {} } as never, fakeRes as never);
  });
  expect(res).toBe(500);
});

describe('findDuplicateLibraries', () => {
  const storage = (records: number) => ({ exports: { defaultMetadataStorage: { _typeMetadatas: new Map(Array.from({ length: records }, (_, i) => [i, i])) } } });
  const tern = (name: string) => `/app/node_modules/${name}`;

  test('one copy of each library is fine', () => {
    expect(findDuplicateLibraries({ '/app/node_modules/class-transformer/cjs/storage.js': storage(3), '/app/node_modules/class-validator/cjs/index.js': {} }, tern)).toBeUndefined();
  });

  test('another class-transformer copy that holds no records (a library using it privately) is ignored', () => {
    expect(findDuplicateLibraries({ '/app/node_modules/sdk/node_modules/class-transformer/cjs/storage.js': storage(0) }, tern)).toBeUndefined();
  });

  test('another class-validator copy matters once Tern loaded its own', () => {
    const other = '/repo/node_modules/class-validator/cjs/index.js';
    expect(findDuplicateLibraries({ [other]: {} }, tern)).toBeUndefined();
    const error = findDuplicateLibraries({ [other]: {}, '/app/node_modules/class-validator/cjs/index.js': {} }, tern);
    expect(error?.code).toBe('TERN_DUPLICATE_LIBRARY');
    expect(error?.message).toContain('/repo/node_modules/class-validator');
  });

});
