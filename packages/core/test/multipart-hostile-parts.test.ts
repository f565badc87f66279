/**
 * What a multipart part's headers can make Tern say about a file (issue 26 items 11 and 12), over
 * a real connection: the names handed to handlers, the type a file without `Content-Type` gets,
 * which types `image/*` admits, and how many header lines a part may have.
 */
import { Controller, Post, TernApp } from '@tern/core';
import { UploadedFiles } from '../src/controllers/decorators/params';
import type { MultipartFile } from '../src/http/multipart';
import { connect } from 'node:net';
import { MAX_PART_HEADER_LINES } from '../src/http/multipart-heads';
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

describe('a file part without Content-Type', () => {
  it('is application/octet-stream; a declared text/plain stays text/plain, and fields stay fields', async () => {
    const response = await post('/files', [
      { headers: ['Content-Disposition: form-data; name="note"'], body: 'a field' },
      file('data.bin'),
      file('notes.txt', 'text/plain'),
      file('more.bin'),
      { headers: ['content-disposition: form-data; name="file"; filename="lower.bin"'], body: 'x' },
    ]);
    expect(response.status).toBe(200);
    expect((response.json() as Array<{ filename: string; mimeType: string }>).map((entry) => [entry.filename, entry.mimeType])).toEqual([
      ['data.bin', 'application/octet-stream'],
      ['notes.txt', 'text/plain'],
      ['more.bin', 'application/octet-stream'],
      ['lower.bin', 'application/octet-stream'],
    ]);
  });

  it('is told apart however the body is cut into packets', async () => {
    const body =
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\nxx\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="b.txt"\r\nContent-Type: text/plain\r\n\r\nyy\r\n--${BOUNDARY}--\r\n`;
    const head = `POST /files HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.write(head);
    for (let i = 0; i < body.length; i += 7) {
      socket.write(body.slice(i, i + 7));
      await new Promise((resolve) => setImmediate(resolve));
    }
    await closed;
    expect(statusOf(answer)).toBe(200);
    expect((JSON.parse(bodyOf(answer)) as Array<{ mimeType: string }>).map((entry) => entry.mimeType)).toEqual(['application/octet-stream', 'text/plain']);
  });
});

describe('part header lines', () => {
  const padded = (count: number) => ({
    headers: ['Content-Disposition: form-data; name="file"; filename="a.bin"', 'Content-Type: image/png', ...Array.from({ length: count - 2 }, (_, i) => `X-Pad-${i}: 1`)],
    body: 'x',
  });

  it(`allow ${MAX_PART_HEADER_LINES} per part; one more is a 413 naming headerPairs`, async () => {
    expect((await post('/files', [padded(MAX_PART_HEADER_LINES)])).status).toBe(200);
    const refused = await post('/files', [padded(MAX_PART_HEADER_LINES + 1)]);
    expect(refused.status).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'TERN_MULTIPART_LIMIT', detail: expect.stringContaining("multipart limit 'headerPairs'") });
  });

  it('are at most 16 KiB in all: a larger block is a 400', async () => {
    const huge = { headers: ['Content-Disposition: form-data; name="file"; filename="a.bin"', `X-Pad: ${'p'.repeat(17 * 1024)}`], body: 'x' };
    const refused = await post('/files', [huge]);
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'TERN_INVALID_MULTIPART' });
  });
});
