/**
 * Issue 24 item 8, limits the document did not show: a method another route owns answered with
 * a converter's 422 instead of 405, `@UploadedFiles` bodies documented as optional though a
 * request without one is a 415, and path parameters over `maxParamLength` answered 414 with no
 * bound in their schema and no 414 in their operation.
 */
import { checkContract } from '@tern/core/testing';
import { buildOpenAPIDocument, Controller, MakeConfig, Post, TernApp, UploadedFiles, type MultipartFile } from '@tern/core';

describe('a method the path does not have', () => {
  it('is a 405 with Allow, even when another route of that method has a converter for the segment', async () => {
    const app = new TernApp();
    app.get('/notes/export', async () => ({ csv: '' }));
    app.delete('/notes/{id:int}', async () => null);
    const response = await app.inject({ method: 'DELETE', url: '/notes/export' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.json()).toMatchObject({ status: 405, code: 'TERN_METHOD_NOT_ALLOWED' });
  });

  it('is still the converter 422 when no other method serves the path', async () => {
    const app = new TernApp();
    app.get('/notes/export', async () => ({ csv: '' }));
    app.delete('/notes/{id:int}', async () => null);
    const response = await app.inject({ method: 'DELETE', url: '/notes/seven' });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 'TERN_INVALID_PATH_PARAM' });
  });
});

describe('an @UploadedFiles body', () => {
  @Controller('/photos')
  class Photos {
    @Post('/gallery')
    async gallery(@UploadedFiles('photos') photos: MultipartFile[]) {
      return { count: photos.length };
    }
  }

  it('is documented as required, since a request without one is a 415', async () => {
    const app = new TernApp().registerControllers([Photos]);
    await app.ready();
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
    const operation = document.paths?.['/photos/gallery']?.post;
    expect(operation?.requestBody).toMatchObject({ required: true });
    expect(operation?.responses?.['415']).toBeDefined();
    expect((await app.inject({ method: 'POST', url: '/photos/gallery' })).statusCode).toBe(415);
  });
});

describe('a path parameter over maxParamLength', () => {
  function notesApp(config?: MakeConfig) {
    const app = new TernApp({ config });
    app.get('/notes/{slug}', { responses: { 200: { slug: String } } }, async (_req, _res, { slug }) => ({ slug: String(slug) }));
    app.get('/files/{rest:path}', { responses: { 200: { rest: String } } }, async (_req, _res, { rest }) => ({ rest: String(rest) }));
    app.get('/items/{id:int}', { responses: { 200: { id: Number } } }, async (_req, _res, { id }) => ({ id: Number(id) }));
    app.get('/slugs/{slug:slug}', { responses: { 200: { slug: String } } }, async (_req, _res, { slug }) => ({ slug: String(slug) }));
    app.get('/health', async () => ({ ok: true }));
    return app;
  }

  async function documentOf(app: TernApp) {
    return (await app.inject('/openapi.json')).json();
  }

  it('is documented: maxLength on every string path parameter, and a 414 problem on every operation with one', async () => {
    const doc = await documentOf(notesApp());
    const schema = (path: string) => doc.paths[path].get.parameters[0].schema;
    expect(schema('/notes/{slug}')).toEqual({ type: 'string', maxLength: 100 });
    expect(schema('/files/{rest}')).toEqual({ type: 'string', maxLength: 100 });
    expect(schema('/slugs/{slug}')).toEqual({ type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 100 });
    // A number is bounded by its range; maxLength says nothing of numbers.
    expect(schema('/items/{id}')).toEqual({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
    for (const path of ['/notes/{slug}', '/files/{rest}', '/items/{id}', '/slugs/{slug}']) {
      expect(doc.paths[path].get.responses['414']).toEqual({
        description: 'A path parameter is longer than 100 characters.',
        content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
      });
    }
    expect(doc.paths['/health'].get.responses['414']).toBeUndefined();
  });

  it('follows the app\'s maxParamLength, counted in characters as maxLength counts them', async () => {
    const app = notesApp(new MakeConfig({ maxParamLength: 20 }));
    const doc = await documentOf(app);
    expect(doc.paths['/notes/{slug}'].get.parameters[0].schema.maxLength).toBe(20);
    expect(doc.paths['/notes/{slug}'].get.responses['414'].description).toBe('A path parameter is longer than 20 characters.');
    // 20 emoji are 20 characters (40 UTF-16 units): within the documented bound, so accepted.
    const emoji = '\u{1F426}'.repeat(20);
    expect((await app.inject(`/notes/${encodeURIComponent(emoji)}`)).statusCode).toBe(200);
    const long = await app.inject(`/notes/${'a'.repeat(21)}`);
    expect([long.statusCode, long.json().code]).toEqual([414, 'TERN_PARAM_TOO_LONG']);
  });

  it('passes the contract check: over-long values get the documented 414', async () => {
    const reports = await checkContract(notesApp(), { seed: 7, runs: 30 });
    expect(reports.length).toBeGreaterThan(0);
  });
});
