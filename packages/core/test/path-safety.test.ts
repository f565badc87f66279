import { TernApp } from '@tern/core';
import { bodyOf, listenOnFreePort, rawGet, statusOf } from '../../../test-support/raw-http';

/**
 * Path values mean what they look like: no `.`/`..` segment reaches a handler, however it was
 * encoded, and `app.inject()` routes a target exactly as a socket would.
 */
describe('path safety', () => {
  const seen: string[] = [];
  const app = new TernApp();
  app.get('/files/{file:path}', async (req, res, { file }) => {
    seen.push(file);
    return { file };
  });
  app.get('/users/{name}', async (req, res, { name }) => ({ name }));
  app.get('/admin', async () => ({ admin: true }));
  let port: number;

  beforeAll(async () => {
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());
  beforeEach(() => (seen.length = 0));

  it.each([
    '/files/..%2f..%2fetc%2fpasswd',
    '/files/..%2F..%2Fetc%2Fpasswd',
    '/files/a%2f..%2f..%2fsecret',
    '/files/..%5c..%5cwindows',
    '/files/a%5C..%5Cb',
    '/files/%2e%2e%2fetc',
    '/files/x/%2e%2e%5csecret',
    '/users/..%2fadmin',
    '/users/a%5c..',
  ])('answers 400 TERN_BAD_PATH for %s, over a socket and through inject()', async (target) => {
    const overSocket = await rawGet(port, target);
    expect(statusOf(overSocket)).toBe(400);
    expect(JSON.parse(bodyOf(overSocket)).code).toBe('TERN_BAD_PATH');
    const injected = await app.inject(target);
    expect(injected.statusCode).toBe(400);
    expect(injected.json().code).toBe('TERN_BAD_PATH');
    expect(seen).toEqual([]);
  });

  it.each([
    ['/files/report.v2.txt', 'report.v2.txt'],
    ['/files/a/.hidden', 'a/.hidden'],
    ['/files/a/...', 'a/...'],
    ['/files/a%2Fb.txt', 'a/b.txt'],
  ])('still serves ordinary dotted values: %s', async (target, file) => {
    const response = await app.inject(target);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ file });
  });

  it.each(['/files/../admin', '/users/x/../../admin', '/files/./x'])('routes %s through inject() as a socket would (400, not normalised)', async (target) => {
    expect(statusOf(await rawGet(port, target))).toBe(400);
    const injected = await app.inject(target);
    expect(injected.statusCode).toBe(400);
    expect(injected.json().code).toBe('TERN_BAD_PATH');
  });

  it('keeps the query string of inject() options on the exact target', async () => {
    const echo = new TernApp();
    echo.get('/q', async (req) => ({ href: req.url.href }));
    const response = await echo.inject({ url: '/q?a=1', query: { b: ['2', '3'] } });
    expect(response.json()).toEqual({ href: '/q?a=1&b=2&b=3' });
  });
});
