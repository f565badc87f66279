import { gunzipSync } from 'node:zlib';
import { buildApp, FRONTEND } from './app';

describe('notes API example (cors + compress)', () => {
  it('answers a preflight from the frontend without reaching the routes', async () => {
    const res = await buildApp().inject({
      method: 'OPTIONS',
      url: '/notes',
      headers: { origin: FRONTEND, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': FRONTEND,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
      'access-control-allow-headers': 'Content-Type,X-Request-Id',
      'access-control-max-age': '600',
      vary: 'Origin',
    });
  });

  it('lets a preview deployment read the list, compressed, with its total exposed', async () => {
    const origin = 'https://pr-42.preview.example';
    const res = await buildApp().inject({ url: '/notes', headers: { origin, 'accept-encoding': 'gzip' } });
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    expect(res.headers['access-control-expose-headers']).toBe('X-Total-Count');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.vary).toBe('Origin, Accept-Encoding');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toHaveLength(50);
  });

  it('keeps the CORS headers on a 404, so the frontend can read the problem', async () => {
    const res = await buildApp().inject({ url: '/notes/999', headers: { origin: FRONTEND } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBe(FRONTEND);
    expect(res.json()).toMatchObject({ status: 404, detail: 'No note 999' });
  });

  it('gives other sites nothing to read with', async () => {
    const res = await buildApp().inject({ url: '/notes', headers: { origin: 'https://evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('sends a small answer as it is', async () => {
    const res = await buildApp().inject({ url: '/notes/1', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json()).toEqual({ id: 1, text: 'Note number 1: remember the milk.' });
  });
});
