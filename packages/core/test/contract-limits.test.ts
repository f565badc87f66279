/**
 * Issue 24 item 8, limits the document did not show: a method another route owns answered with
 * a converter's 422 instead of 405, and `@UploadedFiles` bodies documented as optional though a
 * request without one is a 415.
 */
import { buildOpenAPIDocument, Controller, Post, TernApp, UploadedFiles, type MultipartFile } from '@tern/core';

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
