/**
 * What a multipart part's headers can make Tern say about a file (issue 26 item 11), over a real
 * connection: the names handed to handlers, the type a file without `Content-Type` gets, and
 * which types `image/*` admits.
 */
import { Controller, Post, TernApp } from '@tern/core';
import { UploadedFiles } from '../src/controllers/decorators/uploaded-files';
import type { MultipartFile } from '../src/http/multipart';
import { BOUNDARY } from '../../../test-support/multipart';
import { bodyOf, listenOnFreePort, rawRequest, statusOf } from '../../../test-support/raw-http';

@Controller('/uploads')
class UploadController {
  @Post('/images')
  async images(@UploadedFiles('file', { mimeTypes: ['image/*'] }) files: MultipartFile[]) {
    return files.map((file) => file.mimeType);
  }

  @Post('/images-and-svg')
  async imagesAndSvg(@UploadedFiles('file', { mimeTypes: ['image/*', 'image/svg+xml'] }) files: MultipartFile[]) {
    return files.map((file) => file.mimeType);
  }
}

let app: TernApp;
let port: number;

beforeAll(async () => {
  app = new TernApp({ logger: false });
  app.post('/files', async (req) => (await req.multipart()).files.map((file) => ({ filename: file.filename, mimeType: file.mimeType, text: file.buffer.toString() })));
  app.registerControllers([UploadController]);
  port = await listenOnFreePort(app);
});
afterAll(() => app.close());

/** POSTs parts given as their raw header lines and contents, over a fresh connection. */
async function post(target: string, parts: Array<{ headers: string[]; body: string }>) {
  let body = '';
  for (const part of parts) body += `--${BOUNDARY}\r\n${part.headers.map((line) => `${line}\r\n`).join('')}\r\n${part.body}\r\n`;
  body += `--${BOUNDARY}--\r\n`;
  // rawRequest writes the text as UTF-8.
  const head = `POST ${target} HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
  const response = await rawRequest(port, head + body);
  return { status: statusOf(response), json: () => JSON.parse(Buffer.from(bodyOf(response), 'latin1').toString('utf8')) as unknown };
}

const file = (name: string, type?: string, body = 'x') => ({
  headers: [`Content-Disposition: form-data; name="file"; filename="${name}"`, ...(type === undefined ? [] : [`Content-Type: ${type}`])],
  body,
});

describe('upload file names', () => {
  it('lose NUL, CR, LF, other control characters and bidi overrides', async () => {
    const response = await post('/files', [
      // RFC 5987 encoding is how a client gets CR, LF and NUL into a part header.
      { headers: [`Content-Disposition: form-data; name="file"; filename*=UTF-8''re%0D%0Aport%00%07.txt`, 'Content-Type: text/plain'], body: 'a' },
      file('invoice\u202Egpj.exe', 'application/pdf'),
      file('\u2066isolated\u2069\u200F.png', 'image/png'),
    ]);
    expect(response.status).toBe(200);
    expect((response.json() as Array<{ filename: string }>).map((entry) => entry.filename)).toEqual(['report.txt', 'invoicegpj.exe', 'isolated.png']);
  });
});

describe('mimeTypes image/*', () => {
  it('admits raster images but not SVG, which must be listed by name', async () => {
    expect((await post('/uploads/images', [file('a.png', 'image/png'), file('b.webp', 'image/webp')])).json()).toEqual(['image/png', 'image/webp']);
    const svg = await post('/uploads/images', [file('c.svg', 'image/svg+xml', '<svg onload="alert(1)"/>')]);
    expect(svg.status).toBe(415);
    expect(svg.json()).toMatchObject({ code: 'TERN_FILE_TYPE_NOT_ALLOWED' });
    expect((await post('/uploads/images-and-svg', [file('c.svg', 'image/svg+xml'), file('a.png', 'image/png')])).json()).toEqual(['image/svg+xml', 'image/png']);
  });
});
