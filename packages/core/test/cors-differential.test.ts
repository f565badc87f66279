/**
 * The same requests sent to an Express 5 app using the `cors` npm package and to a Tern app using
 * `cors()`, with the same options: status and CORS headers must agree, except in the rows whose
 * `differs` says what Tern answers instead and why (docs/cors.md carries the same list).
 */
import { isDeepStrictEqual } from 'node:util';
import corsPackage from 'cors';
import express, { type NextFunction, type Request as ExpressRequest, type Response as ExpressResponse } from 'express';
import { TernApp } from '@tern/core';
import { cors, type CorsOptions } from '../src/middleware/cors';
import { injectRequest, type InjectResponse } from '../src/testing/inject';

type Headers = Record<string, string | undefined>;

interface Case {
  name: string;
  /** Tern's options; `express` overrides them for the `cors` package where its option shape differs (functions). */
  options: CorsOptions;
  express?: corsPackage.CorsOptions;
  method?: string;
  url?: string;
  headers?: Headers;
  /** Where Tern deliberately answers otherwise: what it sends instead (undefined = header absent). */
  differs?: { why: string; status?: number; headers?: Headers };
}

const APP = 'https://app.example';
const EVIL = 'https://evil.example';
const preflight = (origin: string, method = 'PUT', requestHeaders?: string): Headers => ({
  origin,
  'access-control-request-method': method,
  ...(requestHeaders ? { 'access-control-request-headers': requestHeaders } : {}),
});
const list = { origin: [APP, /\.trusted\.example$/] };
const extras = { credentials: true, exposedHeaders: ['X-Total', 'X-Page'], maxAge: 600 };

const cases: Case[] = [
  { name: 'default options, simple GET', options: {}, headers: { origin: APP } },
  { name: 'default options, GET without Origin', options: {} },
  { name: 'default options, preflight echoes the requested headers', options: {}, headers: preflight(APP, 'PATCH', 'X-Token, Content-Type') },
  { name: 'preflight for a path that would be 404', options: {}, url: '/nowhere', headers: preflight(APP) },
  { name: 'preflight for a method the path lacks (405)', options: {}, headers: preflight(APP, 'DELETE') },
  { name: '404 keeps the CORS headers', options: list, url: '/nowhere', headers: { origin: APP } },
  { name: '500 from a handler throw keeps the CORS headers', options: list, url: '/fail', headers: { origin: APP } },
  { name: '422 keeps the CORS headers', options: list, url: '/items/abc', headers: { origin: APP } },
  { name: 'HEAD', options: list, method: 'HEAD', headers: { origin: APP } },
  { name: 'POST', options: list, method: 'POST', headers: { origin: APP } },
  {
    name: 'fixed origin',
    options: { origin: APP },
    headers: { origin: EVIL },
    differs: { why: 'the answer is the same for every Origin, so Vary: Origin would only split caches (@fastify/cors agrees)', headers: { vary: undefined } },
  },
  { name: 'list: allowed origin is echoed', options: list, headers: { origin: APP } },
  { name: 'list: RegExp entry', options: list, headers: { origin: 'https://api.trusted.example' } },
  { name: 'list: refused origin', options: list, headers: { origin: EVIL } },
  { name: 'list: no Origin header', options: list },
  { name: 'list: allowed preflight with extras', options: { ...list, ...extras, allowedHeaders: ['Content-Type', 'X-Token'], methods: ['GET', 'PUT'] }, headers: preflight(APP) },
  { name: 'list: allowed GET with credentials and exposed headers', options: { ...list, ...extras }, headers: { origin: APP } },
  {
    name: 'list: refused origin with credentials and exposed headers',
    options: { ...list, ...extras },
    headers: { origin: EVIL },
    differs: {
      why: 'without Allow-Origin the browser ignores every other Access-Control-* header; Tern sends none of them',
      headers: { 'access-control-allow-credentials': undefined, 'access-control-expose-headers': undefined },
    },
  },
  {
    name: 'list: refused preflight',
    options: { ...list, ...extras },
    headers: preflight(EVIL, 'PUT', 'X-Token'),
    differs: {
      why: 'same: a refused preflight is still answered (204) but says nothing about the API',
      headers: {
        'access-control-allow-credentials': undefined,
        'access-control-allow-methods': undefined,
        'access-control-allow-headers': undefined,
        'access-control-expose-headers': undefined,
        'access-control-max-age': undefined,
        vary: 'origin',
      },
    },
  },
  { name: 'RegExp origin: allowed', options: { origin: /^https:\/\/app\./ }, headers: { origin: APP } },
  { name: 'RegExp origin: refused', options: { origin: /^https:\/\/app\./ }, headers: { origin: EVIL } },
  { name: 'origin: true echoes any origin', options: { origin: true, credentials: true }, headers: { origin: EVIL } },
  { name: 'origin: false turns CORS off', options: { origin: false }, headers: preflight(APP), url: '/opts' },
  {
    name: 'function origin: allowed',
    options: { origin: (origin) => origin === APP },
    express: { origin: (origin, cb) => cb(null, origin === APP) },
    headers: { origin: APP },
  },
  {
    name: 'async function origin: allowed preflight',
    options: { origin: async (origin) => origin.endsWith('.example'), credentials: true },
    express: { origin: (origin, cb) => cb(null, Boolean(origin?.endsWith('.example'))), credentials: true },
    headers: preflight(APP, 'POST', 'X-Token'),
  },
  {
    name: 'function origin: returns a fixed origin',
    options: { origin: () => APP },
    express: { origin: (_origin, cb) => cb(null, APP) },
    headers: { origin: EVIL },
  },
  {
    name: 'function origin: refused',
    options: { origin: (origin) => origin === APP },
    express: { origin: (origin, cb) => cb(null, origin === APP) },
    headers: { origin: EVIL },
    differs: { why: 'the function decided from the Origin, so caches must key on it: Tern sends Vary: Origin (so does @fastify/cors)', headers: { vary: 'origin' } },
  },
  {
    name: 'OPTIONS without Access-Control-Request-Method',
    options: list,
    method: 'OPTIONS',
    headers: { origin: APP },
    differs: {
      why: 'only OPTIONS with Access-Control-Request-Method is a preflight (Fetch standard); a plain OPTIONS reaches the routes (here 405) with the simple-request headers',
      status: 405,
      headers: { 'access-control-allow-methods': undefined, vary: 'origin' },
    },
  },
  { name: 'preflightContinue hands the preflight to the OPTIONS route', options: { ...list, preflightContinue: true }, url: '/opts', headers: preflight(APP) },
  { name: 'optionsSuccessStatus 200', options: { optionsSuccessStatus: 200 }, headers: preflight(APP) },
  {
    name: 'a handler that replaces Vary',
    options: list,
    url: '/vary',
    headers: { origin: APP },
    differs: { why: "Express's setHeader drops the Vary: Origin cors added before the handler; Tern appends Origin again after it", headers: { vary: 'cookie, origin' } },
  },
];

const COMPARED = [
  'access-control-allow-origin',
  'access-control-allow-credentials',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
  'vary',
];

function ternApp(options: CorsOptions): TernApp {
  const app = new TernApp({ logger: false, openapi: { openapiPath: false, docsPath: false } });
  app.addMiddleware(cors(options));
  app.get('/items', async () => ({ items: [] }));
  app.post('/items', async () => ({ created: true }));
  app.get('/items/{id:int}', async (req, res, { id }) => ({ id }));
  app.get('/fail', async () => {
    throw new Error('boom');
  });
  app.get('/vary', async (req, res) => res.setHeader('Vary', 'Cookie').json({ ok: true }));
  app.options('/opts', async (req, res) => res.text('options route'));
  app.get('/opts', async () => ({ ok: true }));
  return app;
}

function expressApp(options: corsPackage.CorsOptions): express.Express {
  const app = express();
  app.use(corsPackage(options));
  app.get('/items', (req, res) => void res.json({ items: [] }));
  app.post('/items', (req, res) => void res.json({ created: true }));
  app.get('/items/:id', (req, res) => {
    if (!/^\d+$/.test(req.params.id)) res.status(422).json({ error: 'not an int' });
    else res.json({ id: Number(req.params.id) });
  });
  app.get('/fail', () => {
    throw new Error('boom');
  });
  app.get('/vary', (req, res) => void res.setHeader('Vary', 'Cookie').json({ ok: true }));
  app.options('/opts', (req, res) => void res.type('text').send('options route'));
  app.get('/opts', (req, res) => void res.json({ ok: true }));
  // Express answers OPTIONS on its own for paths with routes; Tern says 405 without an OPTIONS route.
  app.options(/.*/, (req, res) => void res.status(405).end());
  app.use((err: Error, req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    void next;
    res.status(500).json({ error: err.message });
  });
  return app;
}

/** Header values as a comparable record; Vary as a sorted, lower-cased list. */
function corsView(response: InjectResponse): Headers {
  const view: Headers = {};
  for (const name of COMPARED) {
    const value = response.headers[name];
    if (value === undefined) continue;
    const text = ([] as Array<string | number>).concat(value).join(', ');
    view[name] = name === 'vary' ? normaliseVary(text) : text;
  }
  return view;
}

function normaliseVary(value: string): string {
  return value
    .split(',')
    .map((field) => field.trim().toLowerCase())
    .filter(Boolean)
    .sort()
    .join(', ');
}

describe('cors(): differential against Express + the cors package', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const request = { method: c.method ?? (c.headers?.['access-control-request-method'] ? 'OPTIONS' : 'GET'), url: c.url ?? '/items', headers: c.headers as Record<string, string> };
    const fromExpress = await injectRequest(expressApp(c.express ?? (c.options as corsPackage.CorsOptions)), request);
    const fromTern = await ternApp(c.options).inject(request);

    const packageAnswer = { status: fromExpress.statusCode, headers: corsView(fromExpress) };
    const ternAnswer = { status: fromTern.statusCode, headers: corsView(fromTern) };
    const expected = { status: c.differs?.status ?? packageAnswer.status, headers: { ...packageAnswer.headers } };
    for (const [name, value] of Object.entries(c.differs?.headers ?? {})) {
      if (value === undefined) delete expected.headers[name];
      else expected.headers[name] = value;
    }
    expect(ternAnswer).toEqual(expected);
    // A row that says Tern differs must really differ from the package (and the others must not).
    expect(isDeepStrictEqual(ternAnswer, packageAnswer)).toBe(c.differs === undefined);
  });
});
