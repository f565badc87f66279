import { createHmac } from 'node:crypto';
import { buildApp, WEBHOOK_SECRET } from './app';

const BOUNDARY = 'example-boundary';

function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
    chunks.push(Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const headers = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe('uploads example', () => {
  it('stores an avatar under its own id, never the file name', async () => {
    const app = buildApp();
    const payload = multipart([{ name: 'alt', value: 'A cat' }, { name: 'avatar', value: PNG, filename: '../../cat.png', type: 'image/png' }]);
    const created = await app.inject({ method: 'POST', url: '/avatars', headers, payload });
    expect(created.statusCode).toBe(201);
    const { id } = created.json();
    expect(created.json()).toEqual({ id, size: PNG.length, type: 'image/png', alt: 'A cat' });
    const read = await app.inject({ url: `/avatars/${id}` });
    expect(read.json()).toEqual({ id, originalName: 'cat.png', type: 'image/png', size: PNG.length });
  });

  it('refuses an avatar over 256 KiB with a 413 naming the limit', async () => {
    const payload = multipart([{ name: 'avatar', value: Buffer.alloc(256 * 1024 + 1), filename: 'big.png', type: 'image/png' }]);
    const response = await buildApp().inject({ method: 'POST', url: '/avatars', headers, payload });
    expect(response.statusCode).toBe(413);
    expect(response.json().detail).toContain("multipart limit 'fileSize'");
  });

  it('refuses a file that is not an image', async () => {
    const payload = multipart([{ name: 'avatar', value: 'hello', filename: 'a.txt', type: 'text/plain' }]);
    expect((await buildApp().inject({ method: 'POST', url: '/avatars', headers, payload })).statusCode).toBe(415);
  });

  it('counts CSV rows as they stream in', async () => {
    const payload = multipart([
      { name: 'files', value: 'a,b\n1,2\n3,4\n', filename: 'one.csv', type: 'text/csv' },
      { name: 'files', value: 'x\n', filename: 'two.csv', type: 'text/csv' },
    ]);
    const response = await buildApp().inject({ method: 'POST', url: '/imports', headers, payload });
    expect(response.json()).toEqual({ counts: { 'one.csv': 3, 'two.csv': 1 } });
  });

  it('counts the rows of a raw CSV body as it streams in', async () => {
    const response = await buildApp().inject({ method: 'PUT', url: '/imports/raw', headers: { 'content-type': 'text/csv' }, payload: 'a,b\n1,2\n' });
    expect(response.json()).toEqual({ rows: 2 });
  });

  it('takes a photo and its fields through the controller decorators', async () => {
    const app = buildApp();
    const photo = { name: 'photo', value: PNG, filename: 'cat.png', type: 'image/png' };
    const created = await app.inject({ method: 'POST', url: '/photos', headers, payload: multipart([{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, photo]) });
    expect([created.statusCode, created.json()]).toEqual([201, { title: 'Cat', year: 2024, type: 'image/png', size: PNG.length }]);

    const text = { ...photo, value: 'hello', type: 'text/plain' };
    const wrongType = await app.inject({ method: 'POST', url: '/photos', headers, payload: multipart([{ name: 'title', value: 'Cat' }, { name: 'year', value: '2024' }, text]) });
    expect([wrongType.statusCode, wrongType.json().code]).toEqual([415, 'TERN_FILE_TYPE_NOT_ALLOWED']);
    const missing = await app.inject({ method: 'POST', url: '/photos', headers, payload: multipart([{ name: 'title', value: 'Cat' }, { name: 'year', value: '1492' }]) });
    expect(missing.statusCode).toBe(422);

    const gallery = multipart([photo, { ...photo, name: 'photos', filename: 'b.png' }, { ...photo, name: 'photos', filename: 'c.png' }].map((p) => ({ ...p, name: 'photos' })));
    expect((await app.inject({ method: 'POST', url: '/photos/gallery', headers, payload: gallery })).json()).toEqual({ count: 3, bytes: 3 * PNG.length });
  });

  it('keeps JSON bodies small while uploads and the raw CSV route take large ones', async () => {
    const app = buildApp();
    const big = 'x'.repeat(200 * 1024);
    const feedback = await app.inject({ method: 'POST', url: '/feedback', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ message: big }) });
    expect([feedback.statusCode, feedback.json().detail]).toEqual([413, 'Request body exceeds the limit of 65536 bytes.']);
    const csv = `${'a,b\n'.repeat(50_000)}`;
    const imported = await app.inject({ method: 'POST', url: '/imports', headers, payload: multipart([{ name: 'rows', value: csv, filename: 'rows.csv', type: 'text/csv' }]) });
    expect(imported.json()).toEqual({ counts: { 'rows.csv': 50_000 } });
    const raw = await app.inject({ method: 'PUT', url: '/imports/raw', headers: { 'content-type': 'text/csv' }, payload: csv });
    expect(raw.json()).toEqual({ rows: 50_000 });
  });

  it('validates the feedback form like JSON', async () => {
    const app = buildApp();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await app.inject({ method: 'POST', url: '/feedback', headers: form, payload: 'email=ada%40example.com&kind=idea&message=More+cats' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ received: { email: 'ada@example.com', kind: 'idea', message: 'More cats' } });
    const bad = await app.inject({ method: 'POST', url: '/feedback', headers: form, payload: 'email=nope&kind=rant&message=x' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.map((e: { path: string }) => e.path).sort()).toEqual(['email', 'kind']);
  });

  it('checks a webhook signature over the raw bytes', async () => {
    const body = '{"event":"paid", "amount": 10}';
    const signature = createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
    const app = buildApp();
    const ok = await app.inject({ method: 'POST', url: '/webhooks/payments', headers: { 'x-signature': signature, 'content-type': 'application/json' }, payload: body });
    expect(ok.json()).toEqual({ accepted: 'paid' });
    const forged = await app.inject({ method: 'POST', url: '/webhooks/payments', headers: { 'x-signature': signature }, payload: body.replace('10', '1000') });
    expect(forged.statusCode).toBe(401);
  });

  it('answers a correctly signed webhook body that is empty or not an event with a 400 problem', async () => {
    const app = buildApp();
    for (const body of ['', 'not json', 'null', '[]', '{"amount":10}', '{"event":5}']) {
      const signature = createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex');
      const res = await app.inject({ method: 'POST', url: '/webhooks/payments', headers: { 'x-signature': signature, 'content-type': 'application/json' }, payload: body });
      expect([body, res.statusCode]).toEqual([body, 400]);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.json()).toMatchObject({ status: 400, title: 'Bad Request' });
    }
    const document = (await app.inject({ url: '/openapi.json' })).json();
    expect(document.paths['/webhooks/payments'].post.responses['400'].content).toHaveProperty(['application/problem+json']);
  });

  it('documents the feedback body under both media types', async () => {
    const app = buildApp();
    const document = (await app.inject({ url: '/openapi.json' })).json();
    expect(Object.keys(document.paths['/feedback'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
  });
});
