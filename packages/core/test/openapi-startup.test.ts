import { IsString } from 'class-validator';
import { Controller, Convertor, Get, Param, TernApp, buildOpenAPIDocument, registerUrlConvertor, type Handler } from '@tern/core';

/**
 * `ready()` checks the OpenAPI document without describing the operations that cannot fail; the
 * document itself is built on its first request. Whatever is built lazily must be the whole
 * document, and whatever could fail must still fail `ready()`.
 */
const ok: Handler = async () => ({ ok: true });

class CreateNote {
  @IsString() title: string;
}

@Controller('/notes', { tags: ['notes'] })
class NoteController {
  @Get('/{id:int}', { summary: 'One note' })
  one(@Param('id') id: number) {
    return { id };
  }
}

function mixedApp(): TernApp {
  const app = new TernApp({ openapi: { title: 'Mixed', version: '2.0.0', tags: [{ name: 'plain', description: 'Plain routes' }] } });
  for (let i = 0; i < 30; i++) app.get(`/r${i}/{id:int}`, { summary: `Route ${i}`, tags: ['plain'] }, ok);
  app.post('/notes', { requestModel: CreateNote, statusCode: 201, responses: { 201: CreateNote } }, ok);
  app.get('/search', { parameters: [{ name: 'q', in: 'query', schema: { type: 'string' } }], 'x-internal': true }, ok);
  app.registerControllers([NoteController]);
  return app;
}

async function thrownBy(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('the OpenAPI document at startup', () => {
  it('is complete on its first request: the same document buildOpenAPIDocument gives, every operation in it', async () => {
    const app = mixedApp();
    await app.ready();
    const first = await app.inject('/openapi.json');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const document = first.json();
    expect(document).toEqual(JSON.parse(JSON.stringify(buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig))));
    expect(Object.keys(document.paths)).toHaveLength(33);
    expect(document.paths['/r7/{id}'].get).toMatchObject({ summary: 'Route 7', tags: ['plain'], operationId: 'get_r7_id' });
    expect(document.paths['/r7/{id}'].get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } }]);
    expect(document.paths['/notes/{id}'].get).toMatchObject({ summary: 'One note', tags: ['notes'] });
    expect(document.paths['/search'].get['x-internal']).toBe(true);
    expect(document.components.schemas.CreateNote).toBeDefined();
    expect(document.tags).toEqual([{ name: 'plain', description: 'Plain routes' }, { name: 'notes' }]);
    // Built once: later requests get the same bytes.
    const second = await app.inject('/openapi.json');
    expect(second.body).toBe(first.body);
  });

  it('fails ready() on a parameters mistake, a duplicate operationId and an unknown security scheme, as before', async () => {
    const parameters = new TernApp();
    for (let i = 0; i < 10; i++) parameters.get(`/r${i}`, ok);
    parameters.get('/items/{id}', { parameters: [{ name: 'itemId', in: 'path' }] }, ok);
    expect(await thrownBy(parameters.ready())).toMatchObject({ code: 'TERN_INVALID_OPENAPI_METADATA' });

    const ids = new TernApp();
    ids.get('/a', { operationId: 'same', summary: 'A' }, ok);
    ids.get('/b', { operationId: 'same', summary: 'B' }, ok);
    expect(await thrownBy(ids.ready())).toMatchObject({ code: 'TERN_DUPLICATE_OPERATION_ID' });

    const security = new TernApp();
    security.get('/me', { security: [{ bearerAuth: [] }] }, ok);
    expect(await thrownBy(security.ready())).toMatchObject({ code: 'TERN_UNKNOWN_SECURITY_SCHEME' });
  });

  it("fails ready() on a problemResponses schema that cannot be described when only plain routes would document it", async () => {
    const app = new TernApp({ openapi: { problemResponses: { schema: { when: Symbol('not a type') } as never } } });
    app.get('/items/{id:int}', { summary: 'An item' }, ok);
    const error = await thrownBy(app.ready());
    expect(error).toMatchObject({ code: 'TERN_INVALID_OPENAPI_METADATA' });
    expect(error.message).toContain('openapi.problemResponses.schema');
  });

  it('fails ready() when a converter schema on a plain route is not JSON, and when an x- extension is not', async () => {
    class HugeConvertor extends Convertor<bigint> {
      regex = '[0-9]+';
      override openapi = { type: 'integer', maximum: 10n ** 30n };
      convert(value: string) {
        return BigInt(value);
      }
      toString(value: bigint) {
        return String(value);
      }
    }
    registerUrlConvertor('huge', new HugeConvertor());
    const app = new TernApp();
    app.get('/big/{n:huge}', { summary: 'Big' }, ok);
    expect(await thrownBy(app.ready())).toBeInstanceOf(TypeError);

    const extension = new TernApp();
    extension.get('/x', { 'x-limit': 10n }, ok);
    expect(await thrownBy(extension.ready())).toBeInstanceOf(TypeError);
  });
});
