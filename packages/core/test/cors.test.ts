import { HTTPException, MakeConfig, TernApp, TernError, type Middleware } from '@tern/core';
import { IsInt } from 'class-validator';
import { cors } from '../src/middleware/cors';
import { listenOnFreePort, rawGet, statusOf } from '../../../test-support/raw-http';

const APP = 'https://app.example';

class Item {
  @IsInt()
  qty: number;
}

function buildApp(middleware: Middleware): { app: TernApp; calls: string[] } {
  const calls: string[] = [];
  const app = new TernApp({ logger: false });
  app.addMiddleware(middleware);
  app.get('/items', async (req) => {
    calls.push(`${req.method} /items`);
    return { items: [] };
  });
  app.post('/items', { requestModel: Item }, async (req) => ({ created: req.body }));
  app.get('/teapot', async () => {
    throw new HTTPException(418, 'short and stout');
  });
  return { app, calls };
}

describe('cors()', () => {
  it('answers a preflight itself: the handler never runs and the body is empty', async () => {
    const { app, calls } = buildApp(cors({ origin: [APP] }));
    const res = await app.inject({ method: 'OPTIONS', url: '/items', headers: { origin: APP, 'access-control-request-method': 'POST' } });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-methods']).toBe('GET,HEAD,PUT,PATCH,POST,DELETE');
    expect(calls).toEqual([]);
    expect(res.headers['content-length']).toBeUndefined();
  });

  it('answers a preflight with optionsSuccessStatus, an empty body saying Content-Length: 0', async () => {
    const { app } = buildApp(cors({ optionsSuccessStatus: 200 }));
    const res = await app.inject({ method: 'OPTIONS', url: '/nowhere', headers: { origin: APP, 'access-control-request-method': 'GET' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe('0');
    expect(res.body).toBe('');
  });

  it.each([
    ['404', { url: '/nowhere' }, 404],
    ['405', { url: '/items', method: 'DELETE' }, 405],
    ['422 from a request model', { url: '/items', method: 'POST', payload: { qty: 'many' } }, 422],
    ['an HTTPException from a handler', { url: '/teapot' }, 418],
    ['400 for a body that is not JSON', { url: '/items', method: 'POST', payload: '{oops', headers: { 'content-type': 'application/json' } }, 400],
  ])('keeps the CORS headers on %s', async (_name, request, status) => {
    const { app } = buildApp(cors({ origin: [APP], credentials: true, exposedHeaders: 'X-Total' }));
    const res = await app.inject({ ...request, headers: { ...('headers' in request ? request.headers : {}), origin: APP } });
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
    expect(res.headers['access-control-expose-headers']).toBe('X-Total');
    expect(res.headers.vary).toBe('Origin');
  });

  it('keeps them on a 413 for a body over the limit', async () => {
    const app = new TernApp({ logger: false, config: new MakeConfig({ bodyLimit: 16 }) });
    app.addMiddleware(cors({ origin: [APP] }));
    app.post('/echo', async (req) => ({ got: await req.json() }));
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { text: 'more than sixteen bytes' }, headers: { origin: APP } });
    expect(res.statusCode).toBe(413);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });

  it('keeps Allow next to them on a 405', async () => {
    const { app } = buildApp(cors({ origin: [APP] }));
    const res = await app.inject({ url: '/items', method: 'PUT', headers: { origin: APP } });
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });

  it("keeps them on an exception handler's answer", async () => {
    const { app } = buildApp(cors({ origin: [APP] }));
    app.addExceptionHandler(404, async (req, res) => res.json({ missing: req.url.path }, 404));
    const res = await app.inject({ url: '/nowhere', headers: { origin: APP } });
    expect(res.json()).toEqual({ missing: '/nowhere' });
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });

  it('keeps them when a later middleware refuses the request', async () => {
    const { app } = buildApp(cors({ origin: [APP] }));
    app.addMiddleware(async () => {
      throw new HTTPException(401, 'who are you?');
    });
    const res = await app.inject({ url: '/items', headers: { origin: APP } });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-control-allow-origin']).toBe(APP);
  });

  it('appends to a Vary header a handler set, and leaves a handler-set Allow-Origin alone', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(cors({ origin: [APP] }));
    app.get('/vary', async (req, res) => res.setHeader('Vary', 'Accept-Language').json({}));
    app.get('/own', async (req, res) => res.setHeader('Access-Control-Allow-Origin', 'https://other.example').json({}));
    expect((await app.inject({ url: '/vary', headers: { origin: APP } })).headers.vary).toBe('Accept-Language, Origin');
    expect((await app.inject({ url: '/own', headers: { origin: APP } })).headers['access-control-allow-origin']).toBe('https://other.example');
  });

  it('passes the request to an origin function and only calls it when there is an Origin', async () => {
    const seen: string[] = [];
    const { app } = buildApp(
      cors({
        origin: async (origin, req) => {
          seen.push(`${origin} ${req.url.path}`);
          return req.url.path === '/items';
        },
      }),
    );
    expect((await app.inject({ url: '/items', headers: { origin: APP } })).headers['access-control-allow-origin']).toBe(APP);
    expect((await app.inject({ url: '/nowhere', headers: { origin: APP } })).headers['access-control-allow-origin']).toBeUndefined();
    const withoutOrigin = await app.inject('/items');
    expect(withoutOrigin.headers['access-control-allow-origin']).toBeUndefined();
    expect(withoutOrigin.headers.vary).toBe('Origin');
    expect(seen).toEqual([`${APP} /items`, `${APP} /nowhere`]);
  });

  it('an origin function that throws is a 500', async () => {
    const { app } = buildApp(
      cors({
        origin: () => {
          throw new Error('lookup failed');
        },
      }),
    );
    expect((await app.inject({ url: '/items', headers: { origin: APP } })).statusCode).toBe(500);
  });

  it('tests a global RegExp afresh on every request', async () => {
    const { app } = buildApp(cors({ origin: /^https:\/\/app\.example$/g }));
    for (let i = 0; i < 3; i++) {
      expect((await app.inject({ url: '/items', headers: { origin: APP } })).headers['access-control-allow-origin']).toBe(APP);
    }
  });

  it("allows the literal origin 'null' only when listed", async () => {
    const listed = buildApp(cors({ origin: ['null'] })).app;
    const unlisted = buildApp(cors({ origin: [APP] })).app;
    expect((await listed.inject({ url: '/items', headers: { origin: 'null' } })).headers['access-control-allow-origin']).toBe('null');
    expect((await unlisted.inject({ url: '/items', headers: { origin: 'null' } })).headers['access-control-allow-origin']).toBeUndefined();
  });

  it("never echoes Origin: null for true, a pattern or a function's true, with credentials, over a real connection", async () => {
    const everyone: Array<Parameters<typeof cors>[0]> = [
      { origin: true, credentials: true },
      { origin: [/.*/], credentials: true },
      { origin: () => true, credentials: true },
    ];
    for (const options of everyone) {
      const { app } = buildApp(cors(options));
      const port = await listenOnFreePort(app);
      try {
        const refused = await rawGet(port, '/items', 'Origin: null\r\n');
        expect(statusOf(refused)).toBe(200);
        expect(refused.toLowerCase()).not.toContain('access-control-allow-origin');
        expect(refused.toLowerCase()).not.toContain('access-control-allow-credentials');
        expect(await rawGet(port, '/items', `Origin: ${APP}\r\n`)).toContain(`access-control-allow-origin: ${APP}`);
      } finally {
        await app.close();
      }
    }
    const named = buildApp(cors({ origin: (origin) => (origin === 'null' ? 'null' : false), credentials: true })).app;
    expect((await named.inject({ url: '/items', headers: { origin: 'null' } })).headers['access-control-allow-origin']).toBe('null');
  });

  it("refuses '*' with credentials without advising origin: true", () => {
    let message = '';
    try {
      cors({ origin: '*', credentials: true });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/List the origins allowed to send credentials/);
    expect(message).not.toMatch(/use origin: true/);
  });

  it("treats '*' in a list as any origin", async () => {
    const { app } = buildApp(cors({ origin: [APP, '*'] }));
    const res = await app.inject({ url: '/items', headers: { origin: 'https://x.example' } });
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.vary).toBeUndefined();
  });

  it.each([
    ["credentials with origin '*'", { credentials: true }],
    ["credentials with '*' in a list", { origin: [APP, '*'], credentials: true }],
    ['an origin entry that is neither string nor RegExp', { origin: [APP, 42 as unknown as string] }],
    ['a non-2xx optionsSuccessStatus', { optionsSuccessStatus: 302 }],
    ['a fractional maxAge', { maxAge: 1.5 }],
  ])('refuses %s when called', (_name, options) => {
    expect(() => cors(options)).toThrow(expect.objectContaining({ code: 'TERN_INVALID_CORS_OPTIONS' }));
    expect(() => cors(options)).toThrow(TernError);
  });
});
