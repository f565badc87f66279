/**
 * The differential suite: the same requests through an Express 5 app and through a Tern app
 * running the same Connect middleware with fromConnect (helmet, cors, cookie-parser,
 * express-session + connect-redis, passport-local, passport-jwt, express-rate-limit, morgan,
 * compression). Status, headers and bodies must agree; where Tern answers otherwise on purpose
 * the test says so and docs/express-middleware.md lists it with the reason.
 */
import { gunzipSync } from 'node:zlib';
import { createHmac } from 'node:crypto';
import express, { type Express } from 'express';
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
import { fromConnect, TernApp, type ConnectMiddleware, type TernRequest } from '@tern/core';
import { createClient, type RedisClientType } from 'redis';
import { RedisStore } from 'connect-redis';
import session from 'express-session';
import { answerOf, both, closeServers, send, servePair, testRedis, type Exchange, type Pair, type Received } from './differential-support';

afterAll(closeServers);

type Connect = ConnectMiddleware;

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
  // cookie-signature's format: the value, a dot, its HMAC-SHA256 in base64 without padding.
  const signed = `s:42.${createHmac('sha256', 's3cret').update('42').digest('base64').replace(/=+$/, '')}`;
  it.each([
    ['plain and signed cookies', { url: '/cookies', headers: { cookie: `theme=dark; uid=${encodeURIComponent(signed)}` } }],
    ['a tampered signed cookie reads as false', { url: '/cookies', headers: { cookie: 'uid=s%3A42.forged' } }],
    ['no cookies', { url: '/cookies' }],
  ])('%s', async (_name, request) => {
    const { express: e, tern: t } = await both(await apps(), request);
    expect(t).toEqual(e);
  });

  it('the signed cookie really is verified (not false on both sides)', async () => {
    const { tern } = await both(await apps(), { url: '/cookies', headers: { cookie: `uid=${encodeURIComponent(signed)}` } });
    expect(JSON.parse(tern.body)).toEqual({ cookies: {}, signed: { uid: '42' } });
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

interface User {
  id: number;
  name: string;
}
const USERS: Record<string, User & { password: string }> = { ada: { id: 1, name: 'ada', password: 'pw' } };
const publicUser = (user: User) => ({ id: user.id, name: user.name });
const JWT_SECRET = 'jwt-test-secret';

/** A passport instance of its own per app, with the local and JWT strategies. */
function passportFor(): passport.PassportStatic {
  const instance = new passport.Passport() as passport.PassportStatic;
  instance.use(
    new LocalStrategy((username, password, done) => {
      const user = USERS[username];
      done(null, user !== undefined && user.password === password ? publicUser(user) : false);
    }),
  );
  instance.use(
    new JwtStrategy({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(), secretOrKey: JWT_SECRET }, (claims: { sub: string }, done: (err: unknown, user?: unknown) => void) => {
      const user = USERS[claims.sub];
      done(null, user === undefined ? false : publicUser(user));
    }),
  );
  instance.serializeUser((user, done) => done(null, (user as User).id));
  instance.deserializeUser((id, done) => done(null, Object.values(USERS).map(publicUser).find((user) => user.id === id) ?? false));
  return instance;
}

/** Express and Tern with body parsers and passport, the route middleware given per route. */
function authPair(global: (p: passport.PassportStatic, side: 'express' | 'tern') => Connect[] = () => []): () => Promise<Pair> {
  let served: Promise<Pair> | undefined;
  return () => {
    if (served) return served;
    const ep = passportFor();
    const expressGlobal = global(ep, 'express');
    const e = express();
    e.disable('x-powered-by');
    e.set('etag', false);
    for (const layer of [express.urlencoded({ extended: false }), express.json(), ...expressGlobal]) e.use(layer as express.RequestHandler);
    e.post('/login', ep.authenticate('local', { session: expressGlobal.length > 0 }) as express.RequestHandler, (req, res) => void res.json({ user: req.user }));
    e.post('/login-redirect', ep.authenticate('local', { session: false, failureRedirect: '/login?failed=1' }) as express.RequestHandler, (req, res) => void res.json({ user: req.user }));
    e.get('/profile', ep.authenticate('jwt', { session: false }) as express.RequestHandler, (req, res) => void res.json({ user: req.user }));
    e.get('/me', (req, res) => void res.json({ user: req.user ?? null }));
    e.post('/visit', (req, res) => {
      const session = req.session as unknown as { visits?: number };
      session.visits = (session.visits ?? 0) + 1;
      res.json({ visits: session.visits });
    });

    const tp = passportFor();
    const ternGlobal = global(tp, 'tern');
    const t = new TernApp({ logger: false });
    for (const layer of [express.urlencoded({ extended: false }), express.json(), ...ternGlobal]) t.addMiddleware(fromConnect(layer as Connect));
    t.post('/login', { middleware: [fromConnect(tp.authenticate('local', { session: ternGlobal.length > 0 }) as Connect)] }, async (req) => ({ user: req.user }));
    t.post('/login-redirect', { middleware: [fromConnect(tp.authenticate('local', { session: false, failureRedirect: '/login?failed=1' }) as Connect)] }, async (req) => ({ user: req.user }));
    t.get('/profile', { middleware: [fromConnect(tp.authenticate('jwt', { session: false }) as Connect)] }, async (req) => ({ user: req.user }));
    t.get('/me', async (req) => ({ user: req.user ?? null }));
    t.post('/visit', async (req) => {
      const session = (req as unknown as { session: { visits?: number } }).session;
      session.visits = (session.visits ?? 0) + 1;
      return { visits: session.visits };
    });
    return (served = servePair(e, t));
  };
}

const form = (body: string): Exchange => ({ method: 'POST', url: '/login', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

describe('differential: passport-local', () => {
  const apps = authPair();
  it.each([
    ['right password (form)', form('username=ada&password=pw')],
    ['right password (JSON)', { method: 'POST', url: '/login', headers: { 'content-type': 'application/json' }, body: '{"username":"ada","password":"pw"}' }],
    ['wrong password is passport\'s 401', form('username=ada&password=nope')],
    ['missing fields are passport\'s 400', form('username=ada')],
    ['failureRedirect answers with res.redirect', { ...form('username=ada&password=nope'), url: '/login-redirect' }],
    ['failureRedirect, for a browser', { ...form('username=ada&password=nope'), url: '/login-redirect', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html' } }],
  ])('%s', async (_name, request) => {
    const { express: e, tern: t } = await both(await apps(), request);
    expect(t).toEqual(e);
  });
});

describe('differential: passport-jwt', () => {
  const apps = authPair();
  const token = (claims: object, options: jwt.SignOptions = {}) => jwt.sign(claims, JWT_SECRET, options);
  it.each([
    ['a valid token', () => ({ authorization: `Bearer ${token({ sub: 'ada' })}` })],
    ['an expired token', () => ({ authorization: `Bearer ${token({ sub: 'ada', exp: Math.floor(Date.now() / 1000) - 60 })}` })],
    ['a token signed with another key', () => ({ authorization: `Bearer ${jwt.sign({ sub: 'ada' }, 'other')}` })],
    ['an unknown subject', () => ({ authorization: `Bearer ${token({ sub: 'bob' })}` })],
    ['no token', () => ({})],
  ])('%s', async (_name, headers) => {
    const { express: e, tern: t } = await both(await apps(), { url: '/profile', headers: headers() });
    expect(t).toEqual(e);
  });
});

describe('differential: express-rate-limit', () => {
  const apps = pair(() => [rateLimit({ windowMs: 60_000, limit: 2, standardHeaders: 'draft-8', legacyHeaders: true }) as Connect]);
  it('the same headers on each request, and the same 429 once over the limit', async () => {
    const served = await apps();
    for (let i = 0; i < 4; i++) {
      const { express: e, tern: t } = await both(served, '/data', [[/(t=|reset=|Reset: )\d+/gi, '$1N']]);
      expect(t).toEqual(e);
      expect(t.status).toBe(i < 2 ? 200 : 429);
    }
  });
});

describe('differential: express-session + connect-redis (real Redis) with passport sessions', () => {
  let redis: Awaited<ReturnType<typeof testRedis>> | undefined;
  let clients: RedisClientType[] = [];
  let apps: (() => Promise<Pair>) | undefined;
  const SID = /connect\.sid=[^;]+/g;
  const masks: Array<[RegExp, string]> = [
    [SID, 'connect.sid=SID'],
    [/Expires=[^;]+/g, 'Expires=T'],
  ];

  beforeAll(async () => {
    redis = await testRedis();
    if ('skip' in redis) {
      console.log(`skipping the express-session + connect-redis differential: ${redis.skip}`);
      return;
    }
    const url = redis.url;
    const store = async (prefix: string) => {
      const client = createClient({ url }) as RedisClientType;
      await client.connect();
      clients.push(client);
      return new RedisStore({ client, prefix });
    };
    // One Redis, one prefix: a session Express made is one Tern reads, as in a migration.
    const [expressStore, ternStore] = [await store('sess-diff:'), await store('sess-diff:')];
    const sessionWith = (sessionStore: RedisStore) =>
      session({ store: sessionStore, secret: 'session-secret', resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax', maxAge: 3_600_000 } }) as Connect;
    apps = authPair((p, side) => [sessionWith(side === 'express' ? expressStore : ternStore), p.initialize() as Connect, p.session() as Connect]);
  }, 20_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
    clients = [];
    if (redis && !('skip' in redis)) await redis.stop();
  });

  const cookieOf = (answer: { raw: [Received, Received] }, side: 0 | 1) => String(answer.raw[side].headers['set-cookie']).split(';')[0];

  it('login, then the session carries the user; counters persist; answers agree', async () => {
    if (!apps) return;
    const served = await apps();
    const login = await both(served, form('username=ada&password=pw'), masks);
    expect(login.tern).toEqual(login.express);
    expect(login.tern.headers['set-cookie']).toBe('connect.sid=SID; Path=/; Expires=T; HttpOnly; SameSite=Lax');
    const [expressCookie, ternCookie] = [cookieOf(login, 0), cookieOf(login, 1)];
    for (const [name, count] of [['first visit', 1], ['second visit', 2]] as const) {
      const fromExpress = answerOf(await send(served.express, { method: 'POST', url: '/visit', headers: { cookie: expressCookie } }), masks);
      const fromTern = answerOf(await send(served.tern, { method: 'POST', url: '/visit', headers: { cookie: ternCookie } }), masks);
      expect({ name, answer: fromTern }).toEqual({ name, answer: fromExpress });
      expect(JSON.parse(fromTern.body)).toEqual({ visits: count });
    }
    const me = answerOf(await send(served.tern, { url: '/me', headers: { cookie: ternCookie } }));
    expect(JSON.parse(me.body)).toEqual({ user: { id: 1, name: 'ada' } });
  });

  it('a session Express created is read by Tern from the same Redis', async () => {
    if (!apps) return;
    const served = await apps();
    const login = await both(served, form('username=ada&password=pw'), masks);
    const expressCookie = cookieOf(login, 0);
    const me = answerOf(await send(served.tern, { url: '/me', headers: { cookie: expressCookie } }));
    expect(JSON.parse(me.body)).toEqual({ user: { id: 1, name: 'ada' } });
  });

  it('no cookie, a forged cookie: no user, no session written, on both', async () => {
    if (!apps) return;
    const served = await apps();
    for (const headers of [{}, { cookie: 'connect.sid=s%3Aforged.sig' }] as Array<Record<string, string>>) {
      const { express: e, tern: t } = await both(served, { url: '/me', headers }, masks);
      expect(t).toEqual(e);
      expect(JSON.parse(t.body)).toEqual({ user: null });
    }
  });
});
