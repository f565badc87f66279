import { TernApp } from '@tern/core';

describe('request members', () => {
  it('read method, query, headers, cookies and url.path', async () => {
    const app = new TernApp();
    app.get('/inspect', async (req) => ({
      method: req.method,
      q: req.queryParams.get('q'),
      missing: req.queryParams.get('missing', 'fallback'),
      all: req.queryParams.getAll('tag'),
      agent: req.headers.get('X-Agent'),
      session: req.cookies.get('session'),
      noCookie: req.cookies.get('none') ?? null,
      path: req.url.path,
    }));
    const response = await app.inject({
      url: '/inspect?q=hello+world&tag=a&tag=b',
      headers: { 'x-agent': 'jest', cookie: 'session=abc123; theme=dark' },
    });
    expect(response.json()).toEqual({
      method: 'GET',
      q: 'hello world',
      missing: 'fallback',
      all: ['a', 'b'],
      agent: 'jest',
      session: 'abc123',
      noCookie: null,
      path: '/inspect',
    });
  });

  it('parse the JSON body once', async () => {
    const app = new TernApp();
    app.post('/echo', async (req) => {
      const first = await req.json();
      const second = await req.json();
      return { same: first === second, first };
    });
    const response = await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } });
    expect(response.json()).toEqual({ same: true, first: { a: 1 } });
  });
});

describe('response members', () => {
  it('set headers chainably, status and cookies', async () => {
    const app = new TernApp();
    app.get('/r', async (req, res) =>
      res.status(202).setHeader('X-One', '1').setCookie('a', '1', { httpOnly: true }).setCookie('b', '2').text('accepted'),
    );
    const response = await app.inject('/r');
    expect(response.statusCode).toBe(202);
    expect(response.headers['x-one']).toBe('1');
    expect(response.body).toBe('accepted');
    expect(response.cookies.map((c) => [c.name, c.value])).toEqual([['a', '1'], ['b', '2']]);
  });

  it('treats header names that are Object.prototype members as plain names', async () => {
    const app = new TernApp();
    app.get('/h', async (req, res) => {
      const inherited = [res.getHeader('constructor'), res.getHeader('toString'), res.getHeader('__proto__')];
      return res.setHeader('constructor', 'c').setHeader('__proto__', 'p').json({ inherited });
    });
    const response = await app.inject('/h');
    expect(response.json()).toEqual({ inherited: [null, null, null] });
    expect(response.headers.constructor).toBe('c');
  });

  it('sends an empty 204 for res.json(null, 204)', async () => {
    const app = new TernApp();
    app.delete('/r', async (req, res) => res.json(null, 204));
    const response = await app.inject({ method: 'DELETE', url: '/r' });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers['content-type']).toBeUndefined();
  });

  it('sends a returned array or string', async () => {
    const app = new TernApp();
    app.get('/list', async () => [1, 2]);
    app.get('/text', async () => 'plain');
    expect((await app.inject('/list')).json()).toEqual([1, 2]);
    expect((await app.inject('/text')).body).toBe('plain');
  });

  it('redirects', async () => {
    const app = new TernApp();
    app.get('/old', async (req, res) => res.redirect('/new', 301));
    const response = await app.inject('/old');
    expect(response.statusCode).toBe(301);
    expect(response.headers.location).toBe('/new');
  });

  it('turns a CRLF in a header value into a 500, not a crash', async () => {
    const app = new TernApp({ logger: false });
    app.get('/inject', async (req, res) => res.setHeader('x-evil', 'a\r\nSet-Cookie: pwned=1').json({}));
    const response = await app.inject('/inject');
    expect(response.statusCode).toBe(500);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(response.headers['x-evil']).toBeUndefined();
  });

  it('turns an invalid status code into a 500', async () => {
    const app = new TernApp({ logger: false });
    app.get('/bad', async (req, res) => res.json({}, 99));
    expect((await app.inject('/bad')).statusCode).toBe(500);
  });

  it('turns a value JSON cannot encode into a 500', async () => {
    const app = new TernApp({ logger: false });
    app.get('/bigint', async () => ({ n: BigInt(1) }));
    expect((await app.inject('/bigint')).statusCode).toBe(500);
  });
});

describe("Tern's own bookkeeping", () => {
  it('is no part of the request or response a handler sees (no jsonBody, settleJson or rawResponse)', async () => {
    const app = new TernApp({ logger: false });
    app.get('/u', { responses: { 200: { id: Number } } }, async (req, res) => {
      res.json({ id: 1, password: 'x' }).status(200);
      // @ts-expect-error internal: the value of the last json(), kept for the writer
      const data = res.jsonData;
      // @ts-expect-error internal: its text
      const body = res.jsonBody;
      // @ts-expect-error internal: its status
      const status = res.jsonStatus;
      // @ts-expect-error internal: the writer's step
      const settle = res.settleJson;
      // @ts-expect-error internal: the Node response, for req.signal
      const raw = req.rawResponse;
      return res.setHeader('x-seen', JSON.stringify([data, body, status, settle, raw, Object.keys(res).filter((k) => /json|settle/i.test(k))]));
    });
    const response = await app.inject('/u');
    expect(response.json()).toEqual({ id: 1 });
    expect(JSON.parse(response.headers['x-seen'] as string)).toEqual([null, null, null, null, null, []]);
  });
});
