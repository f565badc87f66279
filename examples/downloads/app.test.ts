import type { TernApp } from '@tern/core';
import { listenOnFreePort } from '../../test-support/raw-http';
import { openStream } from '../../test-support/stream-client';
import { buildApi, buildApp } from './app';

describe('downloads and live clock example', () => {
  it('serves the page that follows the event stream', async () => {
    const res = await buildApp().inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain("new EventSource('/events')");
  });

  it('offers report.csv as a download, and resumes it with a Range', async () => {
    const app = buildApp();
    const full = await app.inject('/files/report.csv');
    expect(full.headers['content-disposition']).toBe('attachment; filename="report.csv"');
    expect(full.body.split('\n')[0]).toBe('month,revenue');
    const rest = await app.inject({ url: '/files/report.csv', headers: { range: 'bytes=14-' } });
    expect(rest.statusCode).toBe(206);
    expect(full.body.slice(14)).toBe(rest.body);
    expect((await app.inject('/files/../app.ts')).statusCode).toBe(400);
    expect((await app.inject('/files/missing.csv')).json().code).toBe('TERN_FILE_NOT_FOUND');
  });

  it('streams the export row by row', async () => {
    const res = await buildApp().inject('/export.csv');
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const lines = res.body.trim().split('\n');
    expect(lines).toHaveLength(1001);
    expect(lines[1000]).toBe('1000,item 1000');
  });

  it('answers an upload with the name, size and type it received', async () => {
    const boundary = 'example-boundary';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nhello\r\n--${boundary}--\r\n`;
    const res = await buildApp().inject({ method: 'POST', url: '/uploads', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ name: 'notes.txt', size: 5, type: 'text/plain' });
  });

  it('tells the page where the API is, and the API lets only that page read it, with cookies', async () => {
    expect((await buildApp({ apiOrigin: 'http://api.test' }).inject('/config.json')).json()).toEqual({ api: 'http://api.test' });
    const res = await buildApi('http://page.test').inject({ url: '/greeting', headers: { origin: 'http://page.test', cookie: 'visitor=ann' } });
    expect(res.headers['access-control-allow-origin']).toBe('http://page.test');
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.json()).toEqual({ hello: 'ann', from: 'http://page.test' });
  });

  describe('the event stream', () => {
    let app: TernApp;
    let port: number;
    beforeAll(async () => {
      app = buildApp({ tickMs: 10 });
      port = await listenOnFreePort(app);
    });
    afterAll(() => app.close());

    it('sends ticks, resuming after Last-Event-ID', async () => {
      const client = openStream(port, '/events', 'Last-Event-ID: 41\r\n');
      const data = await client.waitFor((text) => text.includes('id: 43\n'));
      expect(data).toMatch(/content-type: text\/event-stream/i);
      expect(data).toMatch(/event: tick\nid: 42\ndata: \{"n":42,"at":"[^"]+"\}\n\n/);
      client.socket.destroy();
    });

    it('is documented as text/event-stream', async () => {
      const doc = (await app.inject('/openapi.json')).json();
      expect(Object.keys(doc.paths['/events'].get.responses['200'].content)).toEqual(['text/event-stream']);
    });
  });
});
