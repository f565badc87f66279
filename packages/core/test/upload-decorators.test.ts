import { validate } from '@readme/openapi-parser';
import { IsInt, IsString } from 'class-validator';
import { Type } from 'class-transformer';
import { Body, Controller, Post, TernApp, buildOpenAPIDocument } from '@tern/core';
import { UploadedFile, UploadedFiles } from '../src/controllers/decorators/params';
import type { MultipartFile } from '../src/http/multipart';
import { multipartBody, multipartHeaders, type PartSpec } from '../../../test-support/multipart';

class PhotoMeta {
  @IsString() title: string;
  @Type(() => Number) @IsInt() year: number;
}

const describeFile = (file: MultipartFile | undefined) =>
  file && { fieldName: file.fieldName, filename: file.filename, mimeType: file.mimeType, size: file.size, text: file.buffer.toString() };

@Controller('/photos')
class PhotoController {
  @Post('/')
  async create(
    @UploadedFile('photo', { maxSize: 10, mimeTypes: ['image/png', 'image/jpeg'] }) photo: MultipartFile,
    @Body() meta: PhotoMeta,
  ) {
    return { photo: describeFile(photo), meta, isInstance: meta instanceof PhotoMeta };
  }

  @Post('/optional')
  async optional(@UploadedFile('photo', { required: false }) photo?: MultipartFile) {
    return { photo: photo === undefined ? null : photo.filename };
  }

  @Post('/gallery')
  async gallery(@UploadedFiles('photos', { mimeTypes: ['image/*'] }) photos: MultipartFile[], @UploadedFiles() all: MultipartFile[]) {
    return { photos: photos.map((p) => p.filename), all: all.map((f) => f.fieldName) };
  }
}

async function appWith(...controllers: Function[]) {
  const app = new TernApp({ logger: false });
  app.registerControllers(controllers);
  await app.ready();
  return app;
}

const send = (app: TernApp, url: string, parts: PartSpec[]) => app.inject({ method: 'POST', url, headers: multipartHeaders(), payload: multipartBody(parts) });
const png = (name = 'photo', value = 'png!', filename = 'cat.png'): PartSpec => ({ name, filename, contentType: 'image/png', value });

describe('@UploadedFile', () => {
  it('passes the file and the validated text fields', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, png()]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      photo: { fieldName: 'photo', filename: 'cat.png', mimeType: 'image/png', size: 4, text: 'png!' },
      meta: { title: 'Cat', year: 2024 },
      isInstance: true,
    });
  });

  it('answers 422 for invalid text fields, naming them', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: 'last year' }, png()]);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((e: { path: string }) => e.path)).toEqual(['year']);
  });

  it('answers 415 naming the accepted types for another file type', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, { name: 'photo', filename: 'x.gif', contentType: 'image/gif', value: 'gif' }]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ code: 'TERN_FILE_TYPE_NOT_ALLOWED', detail: "File 'x.gif' in field 'photo' has type 'image/gif'; accepted: image/png, image/jpeg." });
  });

  it('answers 413 over maxSize while streaming (the route limits fileSize to it)', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, png('photo', 'x'.repeat(11))]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ code: 'TERN_MULTIPART_LIMIT', detail: expect.stringContaining("'fileSize'") });
  });

  it('answers 413 for more files than the route takes', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, png(), png('other')]);
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toContain("'files'");
  });

  it('answers 422 for a missing file, unless it is optional', async () => {
    const app = await appWith(PhotoController);
    const missing = await send(app, '/photos', [{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }]);
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({ detail: "File 'photo' is required.", errors: [{ path: 'photo', message: 'photo must be a file' }] });
    const optional = await send(app, '/photos/optional', [{ name: 'note', value: 'none' }]);
    expect(optional.json()).toEqual({ photo: null });
  });

  it('answers 415 for a request that is not multipart', async () => {
    const app = await appWith(PhotoController);
    const response = await app.inject({ method: 'POST', url: '/photos', payload: { title: 'Cat', year: 2024 } });
    expect(response.statusCode).toBe(415);
    expect(response.json().detail).toContain('multipart/form-data');
  });
});

describe('@UploadedFiles', () => {
  it('lists the files of a field, or every file', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos/gallery', [png('photos', 'a', 'a.png'), { name: 'doc', filename: 'd.txt', value: 'd' }, png('photos', 'b', 'b.png')]);
    expect(response.json()).toEqual({ photos: ['a.png', 'b.png'], all: ['photos', 'doc', 'photos'] });
  });

  it('checks each file against mimeTypes', async () => {
    const app = await appWith(PhotoController);
    const response = await send(app, '/photos/gallery', [png('photos'), { name: 'photos', filename: 'x.txt', contentType: 'text/plain', value: 't' }]);
    expect(response.statusCode).toBe(415);
    expect(response.json().detail).toContain('accepted: image/*');
  });
});

describe('upload declarations', () => {
  it('documents the multipart body: text fields of the model and binary file fields', async () => {
    const app = await appWith(PhotoController);
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
    expect(document.paths?.['/photos']?.post?.requestBody).toEqual({
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            allOf: [
              { $ref: '#/components/schemas/PhotoMeta' },
              { type: 'object', properties: { photo: { type: 'string', format: 'binary' } }, required: ['photo'] },
            ],
          },
          encoding: { photo: { contentType: 'image/png, image/jpeg' } },
        },
      },
    });
    expect(document.paths?.['/photos/gallery']?.post?.requestBody).toEqual({
      required: true, // no body at all is a 415 (issue 24 item 8)
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            properties: { photos: { type: 'array', items: { type: 'string', format: 'binary' } } },
            additionalProperties: { type: 'string', format: 'binary' },
          },
          encoding: { photos: { contentType: 'image/*' } },
        },
      },
    });
  });

  it('writes a valid OpenAPI 3.1 document', async () => {
    const app = await appWith(PhotoController);
    const document = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig);
    const result = await validate(structuredClone(document) as Parameters<typeof validate>[0]);
    expect(result).toMatchObject({ valid: true });
    expect(result.warnings).toEqual([]);
  });

  it('documents form routes under their consumed media types', async () => {
    const app = new TernApp();
    app.post('/signup', { requestModel: PhotoMeta, consumes: ['application/x-www-form-urlencoded', 'application/json'] }, async () => ({}));
    await app.ready();
    const body = buildOpenAPIDocument(app.getAllRoutes(), app.openapiConfig).paths?.['/signup']?.post?.requestBody;
    const ref = { $ref: '#/components/schemas/PhotoMeta' };
    expect(body).toEqual({ required: true, content: { 'application/x-www-form-urlencoded': { schema: ref }, 'application/json': { schema: ref } } });
  });

  it('refuses bad options when the class is defined', () => {
    expect(() => UploadedFile('')).toThrow(expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE' }));
    expect(() => UploadedFile('f', { maxSize: 0 })).toThrow(/maxSize/);
    expect(() => UploadedFile('f', { mimeTypes: ['png'] })).toThrow(/mimeTypes/);
    expect(() => UploadedFiles('f', { required: true })).toThrow(/required/);
  });

  it('refuses at startup a consumes list without multipart on an upload route', async () => {
    @Controller('/x')
    class Wrong {
      @Post('/', { consumes: ['application/json'] })
      async up(@UploadedFile('f') f: MultipartFile) {
        return { size: f.size };
      }
    }
    const app = new TernApp();
    app.registerControllers([Wrong]);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_BODY_OPTIONS' });
  });
});
