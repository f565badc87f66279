/**
 * Each Express addition fromConnect gives Node's req/res (the list in docs/express-middleware.md),
 * read or called by a Connect middleware and checked in what the client receives.
 */
import { request as httpRequest } from 'node:http';
import { fromConnect, TernApp } from '@tern/core';
import type { Request, Response, NextFunction } from 'express';
import { listenOnFreePort } from '../../../../test-support/raw-http';

type Sendable = Exclude<Parameters<TernApp['inject']>[0], undefined>;
interface Received {
  statusCode: number;
  headers: Record<string, string | number | string[] | undefined>;
  body: string;
  json(): unknown;
}
type Send = (app: TernApp, request: Sendable) => Promise<Received>;

/**
 * `inject()` answers with requests of its own making, which get the additions defined on
 * themselves; `app.listen()`'s server creates Tern's own request classes, whose prototypes carry
 * them. Every test runs through both.
 */
const TRANSPORTS: Array<[string, Send]> = [
  ['through inject()', (app, request) => app.inject(request)],
  ["over a socket to app.listen()'s server", overSocket],
];

async function overSocket(app: TernApp, request: Sendable): Promise<Received> {
  const { method = 'GET', url = '/', headers = {} } = typeof request === 'string' ? { url: request } : (request as { method?: string; url?: string; headers?: Record<string, string> });
  const port = await listenOnFreePort(app);
  try {
    return await new Promise<Received>((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, method, path: url, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString();
          resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body, json: () => JSON.parse(body) as unknown });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    await app.close();
  }
}

describe.each(TRANSPORTS)('Express additions, %s', (transport, send) => {
/** An app whose middleware answers with what `read` saw on req/res (JSON), before any handler. */
async function seen(read: (req: Request, res: Response) => unknown, request: Sendable = '/things/7?tag=a&tag=b&q=x', app = new TernApp({ logger: false })) {
  app.addMiddleware(fromConnect((req: Request, res: Response, next: NextFunction) => {
    res.setHeader('x-seen', JSON.stringify(read(req, res) ?? null));
    next();
  }));
  app.get('/things/{id:int}', async () => ({ handler: true }));
  const res = await send(app, request);
  return JSON.parse(String(res.headers['x-seen'])) as unknown;
}

/** An app whose Connect middleware answers by itself with `answer`. */
async function answered(answer: (req: Request, res: Response) => void, request: Sendable = '/things/7') {
  const app = new TernApp({ logger: false });
  app.addMiddleware(fromConnect((req: Request, res: Response) => answer(req, res)));
  app.get('/things/{id:int}', async () => ({ handler: true }));
  return send(app, request);
}

describe('to req', () => {
  it('req.get / req.header: case-insensitive, Referer and Referrer alike', async () => {
    expect(await seen((req) => [req.get('X-Token'), req.header('x-token'), req.get('referrer'), req.get('Missing')], { url: '/things/7', headers: { 'x-token': 't1', referer: 'https://a.example/' } })).toEqual([
      't1',
      't1',
      'https://a.example/',
      null,
    ]);
  });

  it('req.originalUrl: the target as received, query included', async () => {
    expect(await seen((req) => req.originalUrl)).toBe('/things/7?tag=a&tag=b&q=x');
  });

  it('req.baseUrl is empty (no Express mount point)', async () => {
    expect(await seen((req) => req.baseUrl)).toBe('');
  });

  it('req.path: the path without the query', async () => {
    expect(await seen((req) => req.path)).toBe('/things/7');
  });

  it('req.query: Express 5\'s simple parser, a repeated name gives a list', async () => {
    expect(await seen((req) => req.query)).toEqual({ tag: ['a', 'b'], q: 'x' });
  });

  it('req.params: the route\'s converted path parameters', async () => {
    expect(await seen((req) => req.params)).toEqual({ id: 7 });
  });

  it('req.ip: the peer, or what trusted proxies forwarded with trustProxy', async () => {
    // inject() can say where a request came from; a real socket comes from loopback.
    expect(await seen((req) => req.ip, { url: '/things/7', remoteAddress: '10.1.2.3' })).toBe(transport === 'through inject()' ? '10.1.2.3' : '127.0.0.1');
    const proxied = new TernApp({ logger: false, trustProxy: true });
    expect(await seen((req) => req.ip, { url: '/things/7', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.9' } }, proxied)).toBe('203.0.113.9');
  });

  it('req.protocol and req.secure', async () => {
    expect(await seen((req) => [req.protocol, req.secure])).toEqual(['http', false]);
  });

  it('req.hostname: the Host without its port', async () => {
    expect(await seen((req) => req.hostname, { url: '/things/7', headers: { host: 'api.example:8443' } })).toBe('api.example');
    expect(await seen((req) => req.hostname, { url: '/things/7', headers: { host: '[::1]:8443' } })).toBe('[::1]');
  });

  it('req.xhr', async () => {
    expect(await seen((req) => req.xhr, { url: '/things/7', headers: { 'x-requested-with': 'XMLHttpRequest' } })).toBe(true);
  });

  it('req.app.get(\'trust proxy\') reports Tern\'s trustProxy (what express-rate-limit checks)', async () => {
    expect(await seen((req) => [req.app.get('trust proxy'), req.app.get('env')])).toEqual([false, null]);
    expect(await seen((req) => req.app.get('trust proxy'), '/things/7', new TernApp({ logger: false, trustProxy: 'loopback' }))).toBe("Tern's trustProxy");
  });

  it('req.res is the response', async () => {
    expect(await seen((req, res) => req.res === res)).toBe(true);
  });

  it('req.cookies / req.signedCookies are left to cookie-parser (absent without it)', async () => {
    expect(await seen((req) => [req.cookies === undefined, req.signedCookies === undefined])).toEqual([true, true]);
  });
});

describe('to res', () => {
  it('res.locals is Tern\'s res.locals', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(fromConnect((_req: Request, res: Response, next: NextFunction) => {
      res.locals.user = 'ada';
      next();
    }));
    app.get('/who', async (_req, res) => ({ user: res.locals.user }));
    expect((await send(app, '/who')).json()).toEqual({ user: 'ada' });
  });

  it('res.status + res.json answer with that status and JSON', async () => {
    const res = await answered((_req, res) => res.status(429).json({ error: 'slow down' }));
    expect([res.statusCode, res.headers['content-type'], res.json()]).toEqual([429, 'application/json; charset=utf-8', { error: 'slow down' }]);
  });

  it('res.set (one or many) and res.get', async () => {
    const res = await answered((_req, res) => {
      res.set('X-One', '1').set({ 'X-Two': '2', 'X-Three': 3 });
      res.json({ one: res.get('x-one') });
    });
    expect([res.headers['x-one'], res.headers['x-two'], res.headers['x-three'], res.json()]).toEqual(['1', '2', '3', { one: '1' }]);
  });

  it('res.header is res.set', async () => {
    expect((await answered((_req, res) => res.header('X-H', 'h').end())).headers['x-h']).toBe('h');
  });

  it('res.append adds to a header', async () => {
    const res = await answered((_req, res) => res.append('Link', '<a>').append('Link', ['<b>']).end());
    // Two Link lines; Node's client joins them.
    expect(([] as unknown[]).concat(res.headers.link).join(', ')).toBe('<a>, <b>');
  });

  it('res.type: a full type as is, json/html/text shorthands', async () => {
    expect((await answered((_req, res) => res.type('text').send('hi'))).headers['content-type']).toBe('text/plain; charset=utf-8');
    expect((await answered((_req, res) => res.type('image/png').send(Buffer.from([1])))).headers['content-type']).toBe('image/png');
  });

  it('res.vary adds a field once', async () => {
    expect((await answered((_req, res) => res.vary('Origin').vary('origin').vary('Accept').end())).headers.vary).toBe('Origin, Accept');
  });

  it('res.send: text as HTML, a Buffer as bytes, an object as JSON, with Content-Length', async () => {
    const text = await answered((_req, res) => res.send('<b>hi</b>'));
    expect([text.headers['content-type'], text.headers['content-length'], text.body]).toEqual(['text/html; charset=utf-8', '9', '<b>hi</b>']);
    expect((await answered((_req, res) => res.send(Buffer.from('ab')))).headers['content-type']).toBe('application/octet-stream');
    expect((await answered((_req, res) => res.send({ a: 1 }))).json()).toEqual({ a: 1 });
  });

  it('res.send on HEAD sends the headers only', async () => {
    const res = await answered((_req, res) => res.send('hello'), { method: 'HEAD', url: '/things/7' });
    expect([res.headers['content-length'], res.body]).toEqual(['5', '']);
  });

  it('res.sendStatus', async () => {
    const res = await answered((_req, res) => res.sendStatus(403));
    expect([res.statusCode, res.body]).toEqual([403, 'Forbidden']);
  });

  it('res.redirect: 302 by default or the status given, Location percent-encoded', async () => {
    const plain = await answered((_req, res) => res.redirect('/login?next=/café'));
    expect([plain.statusCode, plain.headers.location, plain.body]).toEqual([302, '/login?next=/caf%C3%A9', 'Found. Redirecting to /login?next=/caf%C3%A9']);
    const html = await answered((_req, res) => res.redirect(303, '/a?b=<c>'), { url: '/things/7', headers: { accept: 'text/html' } });
    expect([html.statusCode, html.headers['content-type'], html.body]).toEqual([303, 'text/html; charset=utf-8', '<!DOCTYPE html><head><title>See Other</title></head><body><p>See Other. Redirecting to /a?b=%3Cc%3E</p></body>']);
    expect((await answered((_req, res) => res.redirect('/x'), { url: '/things/7', headers: { accept: 'application/json' } })).body).toBe('');
  });

  it('res.cookie (maxAge in ms, objects as j:) and res.clearCookie', async () => {
    const res = await answered((_req, res) => {
      res.cookie('theme', 'dark', { maxAge: 60_000, httpOnly: true }).cookie('prefs', { a: 1 }).clearCookie('old');
      res.end();
    });
    const cookies = res.headers['set-cookie'] as string[];
    expect(cookies[0]).toMatch(/^theme=dark; Max-Age=60; Path=\/; Expires=.+; HttpOnly$/);
    expect(cookies[1]).toBe('prefs=j%3A%7B%22a%22%3A1%7D; Path=/');
    expect(cookies[2]).toMatch(/^old=; Path=\/; Expires=Thu, 01 Jan 1970/);
  });

  it('res.cookie refuses signed cookies (no cookie-parser secret to sign with)', async () => {
    expect((await answered((_req, res) => res.cookie('s', 'v', { signed: true }))).statusCode).toBe(500);
  });
});
});
