/**
 * fromConnect: a Connect middleware as a layer of Tern's chain, seen from a client. Each test
 * uses plain Connect-style functions; the real packages are in connect-differential.test.ts.
 */
import express, { type Response as ExpressResponse } from 'express';
import { IsInt, IsString } from 'class-validator';
import { APIKey, Controller, enforceSecurity, fromConnect, Get, Group, HTTPException, Router, Routes, TernApp, TernError, type Middleware } from '@tern/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenOnFreePort, rawRequest, statusOf } from '../../../../test-support/raw-http';

type Req = IncomingMessage & Record<string, unknown>;
type Res = ServerResponse & Record<string, unknown>;
type Next = (err?: unknown) => void;

const setsHeader = (name: string, value: string) => (_req: Req, res: Res, next: Next) => {
  res.setHeader(name, value);
  next();
};

class Order {
  @IsString()
  item: string;

  @IsInt()
  qty: number;
}

function appWith(...middleware: Middleware[]): { app: TernApp; ran: string[] } {
  const ran: string[] = [];
  const app = new TernApp({ logger: false });
  for (const layer of middleware) app.addMiddleware(layer);
  app.get('/hello', async () => {
    ran.push('hello');
    return { hello: 'world' };
  });
  app.post('/orders', { requestModel: Order }, async (req) => {
    ran.push('orders');
    return { order: req.body };
  });
  app.post('/echo', async (req) => ({ json: await req.json() }));
  app.post('/form', async (req) => ({ form: { ...(await req.form()) } }));
  return { app, ran };
}

describe('fromConnect: headers and answers', () => {
  it('headers a middleware sets reach the handler\'s answer', async () => {
    const { app } = appWith(fromConnect(setsHeader('x-frame-options', 'DENY')));
    const res = await app.inject('/hello');
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.json()).toEqual({ hello: 'world' });
  });

  it('headers it sets reach Tern\'s error answers too (404, thrown 500)', async () => {
    const { app } = appWith(fromConnect(setsHeader('x-content-type-options', 'nosniff')));
    app.get('/boom', async () => {
      throw new Error('secret detail');
    });
    const missing = await app.inject('/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-content-type-options']).toBe('nosniff');
    const boom = await app.inject('/boom');
    expect(boom.statusCode).toBe(500);
    expect(boom.headers['x-content-type-options']).toBe('nosniff');
    expect(boom.body).not.toContain('secret detail');
  });

  it('when it ends the response itself, the handler does not run and Tern adds nothing', async () => {
    const { app, ran } = appWith(
      fromConnect((_req: Req, res: Res) => {
        res.statusCode = 403;
        res.setHeader('content-type', 'text/plain');
        res.end('go away');
      }),
      async (_req, res, next) => {
        ran.push('tern middleware');
        res.setHeader('x-tern', 'added');
        return next();
      },
    );
    const res = await app.inject('/hello');
    expect(res.statusCode).toBe(403);
    expect(res.body).toBe('go away');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.headers['x-tern']).toBeUndefined();
    expect(ran).toEqual([]);
  });

  it('an answer that ends later (after an await) still stops the chain', async () => {
    const { app, ran } = appWith(
      fromConnect((_req: Req, res: Res) => {
        setTimeout(() => {
          res.statusCode = 429;
          res.end('slow down');
        }, 5);
      }),
    );
    const res = await app.inject('/hello');
    expect([res.statusCode, res.body]).toEqual([429, 'slow down']);
    expect(ran).toEqual([]);
  });

  it('answering and then calling next() as well keeps the answer and skips the handler', async () => {
    const { app, ran } = appWith(
      fromConnect((_req: Req, res: Res, next: Next) => {
        res.statusCode = 401;
        res.end('no');
        next();
      }),
    );
    const res = await app.inject('/hello');
    expect([res.statusCode, res.body]).toEqual([401, 'no']);
    expect(ran).toEqual([]);
  });

  it('a status set before next() is the answer\'s unless the handler sets its own', async () => {
    const { app } = appWith(
      fromConnect((_req: Req, res: Res, next: Next) => {
        res.statusCode = 202;
        next();
      }),
    );
    expect((await app.inject('/hello')).statusCode).toBe(202);
  });

  it('a Vary it sets is merged with the Vary Tern\'s layers set', async () => {
    const { app } = appWith(
      fromConnect((_req: Req, res: Res, next: Next) => {
        res.setHeader('Vary', 'Origin');
        next();
      }),
    );
    app.get('/varied', async (_req, res) => res.setHeader('vary', 'Accept-Encoding').json({ ok: true }));
    expect((await app.inject('/varied')).headers.vary).toBe('Accept-Encoding, Origin');
  });
});

describe('fromConnect: errors', () => {
  const failing = (err: unknown) => fromConnect((_req: Req, _res: Res, next: Next) => next(err));

  it('next(err) with err.status is that status, its 4xx message shown', async () => {
    const err = Object.assign(new Error('token expired'), { status: 401 });
    const res = await appWith(failing(err)).app.inject('/hello');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401, detail: 'token expired' });
  });

  it('next(err) with err.statusCode is honoured too, with err.headers', async () => {
    const err = Object.assign(new Error('slow down'), { statusCode: 429, headers: { 'Retry-After': '30' } });
    const res = await appWith(failing(err)).app.inject('/hello');
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
  });

  it('a 5xx status keeps its message private unless err.expose says otherwise', async () => {
    const hidden = await appWith(failing(Object.assign(new Error('db password wrong'), { status: 503 }))).app.inject('/hello');
    expect(hidden.statusCode).toBe(503);
    expect(hidden.body).not.toContain('db password');
    const hiddenFourXx = await appWith(failing(Object.assign(new Error('internal id 42'), { status: 400, expose: false }))).app.inject('/hello');
    expect(hiddenFourXx.statusCode).toBe(400);
    expect(hiddenFourXx.body).not.toContain('internal id 42');
  });

  it('a plain Error is a 500 without its message, and reaches Tern\'s exception handlers', async () => {
    const { app, ran } = appWith(failing(new Error('connection string: postgres://u:p@db')));
    const plain = await app.inject('/hello');
    expect(plain.statusCode).toBe(500);
    expect(plain.body).not.toContain('postgres://');
    expect(ran).toEqual([]);
    class Teapot extends Error {}
    const handled = appWith(failing(new Teapot('short'))).app;
    handled.addExceptionHandler(Teapot, async (_req, res) => res.json({ handled: true }, 418));
    const res = await handled.inject('/hello');
    expect([res.statusCode, res.json()]).toEqual([418, { handled: true }]);
  });

  it('a status outside 400-599 is a plain 500', async () => {
    const res = await appWith(failing(Object.assign(new Error('odd'), { status: 302 }))).app.inject('/hello');
    expect(res.statusCode).toBe(500);
  });

  it('a throw and a rejected promise are 500s, and the app keeps serving', async () => {
    const { app } = appWith(
      fromConnect((req: Req, _res: Res, next: Next) => {
        if (req.url === '/hello?throw') throw new Error('thrown secret');
        if (req.url === '/hello?reject') return Promise.reject(new Error('rejected secret'));
        next();
      }),
    );
    const thrown = await app.inject('/hello?throw');
    const rejected = await app.inject('/hello?reject');
    expect([thrown.statusCode, rejected.statusCode]).toEqual([500, 500]);
    expect(thrown.body + rejected.body).not.toMatch(/secret/);
    expect((await app.inject('/hello')).statusCode).toBe(200);
  });

  it('next(\'route\') is a coded 500: Tern has no next route to skip to', async () => {
    const reported: unknown[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => reported.push(args[1]) } });
    app.addMiddleware(failing('route'));
    app.get('/hello', async () => ({}));
    expect((await app.inject('/hello')).statusCode).toBe(500);
    expect(reported[0]).toBeInstanceOf(TernError);
    expect((reported[0] as TernError).code).toBe('TERN_CONNECT_NEXT_ROUTE');
  });

  it('an (err, req, res, next) middleware answers the failures of the layers inside it', async () => {
    const { app } = appWith(
      fromConnect((err: Error & { status?: number }, _req: Req, res: ExpressResponse, _next: Next) => {
        res.status(err.status ?? 500).json({ fromExpressHandler: err.message });
      }),
    );
    app.get('/fails', async () => {
      throw new HTTPException(409, 'taken');
    });
    const res = await app.inject('/fails');
    expect([res.statusCode, res.json()]).toEqual([409, { fromExpressHandler: 'taken' }]);
    expect((await app.inject('/hello')).statusCode).toBe(200);
  });

  it('an error middleware that calls next() hands the failure on to Tern', async () => {
    const seen: string[] = [];
    const { app } = appWith(
      fromConnect((err: Error, _req: Req, _res: Res, next: Next) => {
        seen.push(err.message);
        next();
      }),
    );
    app.get('/fails', async () => {
      throw new HTTPException(409, 'taken');
    });
    const res = await app.inject('/fails');
    expect(res.statusCode).toBe(409);
    expect(seen).toEqual(['taken']);
  });

  it('refuses what is not a function', () => {
    expect(() => fromConnect('helmet' as never)).toThrow(TypeError);
  });
});

describe('fromConnect: bodies a Connect parser read', () => {
  it('express.json(): the parsed body is validated against the route\'s model, not read again', async () => {
    const { app, ran } = appWith(fromConnect(express.json()));
    const ok = await app.inject({ method: 'POST', url: '/orders', payload: { item: 'tea', qty: 2 } });
    expect([ok.statusCode, ok.json()]).toEqual([200, { order: { item: 'tea', qty: 2 } }]);
    const bad = await app.inject({ method: 'POST', url: '/orders', payload: { item: 'tea', qty: 'two' } });
    expect(bad.statusCode).toBe(422);
    expect(ran).toEqual(['orders']);
  });

  it('express.json(): req.json() answers with the parsed body', async () => {
    const { app } = appWith(fromConnect(express.json()));
    const res = await app.inject({ method: 'POST', url: '/echo', payload: { a: [1, 2] } });
    expect(res.json()).toEqual({ json: { a: [1, 2] } });
  });

  it('express.urlencoded(): req.form() answers with the parsed fields', async () => {
    const { app } = appWith(fromConnect(express.urlencoded({ extended: false })));
    const res = await app.inject({ method: 'POST', url: '/form', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1&b=2&b=3' });
    expect(res.json()).toEqual({ form: { a: '1', b: ['2', '3'] } });
  });

  it('a body over the route\'s bodyLimit is a 413 even when the parser\'s own limit is larger', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(fromConnect(express.json({ limit: '10mb' })));
    app.post('/small', { bodyLimit: 100 }, async (req) => ({ json: await req.json() }));
    const chunked = await app.inject({ method: 'POST', url: '/small', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ pad: 'x'.repeat(500) }) });
    expect(chunked.statusCode).toBe(413);
  });

  it('a parsed body keeps Tern\'s JSON checks: __proto__ keys and depth are 400s', async () => {
    const { app } = appWith(fromConnect(express.json()));
    const proto = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"__proto__":{"admin":true}}' });
    expect(proto.statusCode).toBe(400);
    const deep = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '['.repeat(200) + ']'.repeat(200) });
    expect(deep.statusCode).toBe(400);
  });

  it('a parser\'s own refusal (invalid JSON) is its 400, with the message body-parser exposes', async () => {
    const { app } = appWith(fromConnect(express.json()));
    const res = await app.inject({ method: 'POST', url: '/echo', headers: { 'content-type': 'application/json' }, payload: '{"a":' });
    expect(res.statusCode).toBe(400);
  });
});

describe('fromConnect: neighbouring Connect middleware run as one stack', () => {
  /** A Connect middleware that notes it ran, then goes on (after a tick when `later`). */
  const step = (name: string, seen: string[], later = false) =>
    fromConnect((_req: Req, _res: Res, next: Next) => {
      seen.push(name);
      if (later) setImmediate(next);
      else next();
    });

  it('app-level and route-level neighbours run in order, each once, then the handler', async () => {
    const seen: string[] = [];
    const app = new TernApp({ logger: false });
    app.addMiddleware(step('app 1', seen));
    app.addMiddleware(step('app 2', seen, true));
    app.get('/run', { middleware: [step('route 1', seen), step('route 2', seen)] }, async () => {
      seen.push('handler');
      return { ok: true };
    });
    expect((await app.inject('/run')).statusCode).toBe(200);
    expect((await app.inject('/run')).statusCode).toBe(200);
    expect(seen).toEqual(['app 1', 'app 2', 'route 1', 'route 2', 'handler', 'app 1', 'app 2', 'route 1', 'route 2', 'handler']);
  });

  it('one that answers (at once or later) stops the rest of the stack and the handler', async () => {
    const seen: string[] = [];
    const app = new TernApp({ logger: false });
    const answersLater = fromConnect((_req: Req, res: Res) => setImmediate(() => res.end('busy')));
    const answersNow = fromConnect((_req: Req, res: Res) => res.end('closed'));
    app.get('/later', { middleware: [step('before', seen), answersLater, step('after', seen)] }, async () => ({ handler: true }));
    app.get('/now', { middleware: [step('before', seen), answersNow, step('after', seen)] }, async () => ({ handler: true }));
    expect((await app.inject('/later')).body).toBe('busy');
    expect((await app.inject('/now')).body).toBe('closed');
    expect(seen).toEqual(['before', 'before']);
  });

  it('next(err) or a throw in the middle is answered by Tern, and the rest does not run', async () => {
    const seen: string[] = [];
    const app = new TernApp({ logger: false });
    const refuses = fromConnect((_req: Req, _res: Res, next: Next) => next(Object.assign(new Error('no entry'), { status: 403 })));
    const throws = fromConnect(() => {
      throw new Error('broken');
    });
    app.get('/refused', { middleware: [step('before', seen), refuses, step('after', seen)] }, async () => ({ handler: true }));
    app.get('/broken', { middleware: [step('before', seen), throws, step('after', seen)] }, async () => ({ handler: true }));
    const refused = await app.inject('/refused');
    expect([refused.statusCode, refused.json()]).toMatchObject([403, { detail: 'no entry' }]);
    expect((await app.inject('/broken')).statusCode).toBe(500);
    expect(seen).toEqual(['before', 'before']);
  });

  it('a body parsed over the route\'s bodyLimit is a 413 before the next middleware sees it', async () => {
    const seen: string[] = [];
    const app = new TernApp({ logger: false });
    const reads = fromConnect((req: Req, _res: Res, next: Next) => {
      seen.push(`saw ${JSON.stringify(req.body).length} bytes`);
      next();
    });
    app.post('/small', { bodyLimit: 100, middleware: [fromConnect(express.json({ limit: '10mb' })), reads] }, async () => ({ handler: true }));
    const res = await app.inject({ method: 'POST', url: '/small', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ pad: 'x'.repeat(500) }) });
    expect(res.statusCode).toBe(413);
    expect(seen).toEqual([]);
  });

  it('a Tern middleware between two Connect ones sees what the first put on req', async () => {
    const app = new TernApp({ logger: false });
    const signsIn = fromConnect((req: Req, _res: Res, next: Next) => {
      req.user = { id: 7 };
      next();
    });
    const ternGuard: Middleware = async (req, res, next) => (req.user === undefined ? res.json({ refused: true }, 401) : next());
    app.get('/guarded', { middleware: [signsIn, ternGuard, step('after', [])] }, async (req) => ({ user: req.user }));
    expect((await app.inject('/guarded')).json()).toEqual({ user: { id: 7 } });
  });
});

describe('fromConnect: what it puts on req', () => {
  const login = fromConnect((req: Req, _res: Res, next: Next) => {
    req.user = { id: 7, name: 'ada' };
    req.session = { cart: ['tea'] };
    next();
  });

  it('req.user and req.session are Tern\'s req.user and req.session in handlers', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(login);
    app.get('/me', async (req) => ({ user: req.user, session: (req as unknown as { session: unknown }).session }));
    expect((await app.inject('/me')).json()).toEqual({ user: { id: 7, name: 'ada' }, session: { cart: ['tea'] } });
  });

  it('a guard (route middleware) reads them', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(login);
    const adminsOnly: Middleware = async (req, _res, next) => {
      if ((req.user as { id: number }).id !== 1) throw new HTTPException(403, 'admins only');
      return next();
    };
    app.get('/admin', { middleware: [adminsOnly] }, async () => ({ secret: true }));
    expect((await app.inject('/admin')).statusCode).toBe(403);
  });

  it('methods it adds (passport\'s req.isAuthenticated) work on Tern\'s req', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(
      fromConnect((req: Req, _res: Res, next: Next) => {
        req.isAuthenticated = function (this: Req) {
          return this.user !== undefined;
        };
        req.user = { id: 1 };
        next();
      }),
    );
    app.get('/check', async (req) => ({ authenticated: (req as unknown as { isAuthenticated(): boolean }).isAuthenticated() }));
    expect((await app.inject('/check')).json()).toEqual({ authenticated: true });
  });
});

describe('fromConnect: every level', () => {
  const mark = (name: string) => fromConnect(setsHeader(`x-${name}`, '1'));
  const ok = async () => ({ ok: true });

  it('works in router, group and route middleware lists', async () => {
    const app = new TernApp({ logger: false });
    const router = new Router({ prefix: '/r', middleware: [mark('router')] });
    router.addRoute(new Group({ path: '/g', middleware: [mark('group')], routes: [new Routes({ path: '/x', middleware: [mark('route')], handler: ok })] }));
    app.mountRouter(router);
    const res = await app.inject('/r/g/x');
    expect([res.headers['x-router'], res.headers['x-group'], res.headers['x-route']]).toEqual(['1', '1', '1']);
  });

  it('works as controller middleware', async () => {
    @Controller('/c', { middleware: [mark('controller')] })
    class C {
      @Get('/x')
      async x() {
        return { ok: true };
      }
    }
    const app = new TernApp({ logger: false });
    app.registerControllers([C]);
    expect((await app.inject('/c/x')).headers['x-controller']).toBe('1');
  });
});

describe('fromConnect: security verifiers read what it put on req', () => {
  it('an enforceSecurity verifier sees req.session set by a Connect middleware', async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('sessionKey', new APIKey({ name: 'sid', in: 'cookie' }));
    app.addMiddleware(
      fromConnect((req: Req, _res: Res, next: Next) => {
        req.session = { sid: 'abc', userId: 42 };
        next();
      }),
    );
    app.addMiddleware(
      enforceSecurity(app, {
        sessionKey: (sid, req) => {
          const session = (req as unknown as { session?: { sid: string; userId: number } }).session;
          return session?.sid === sid ? { id: session.userId } : null;
        },
      }),
    );
    app.get('/me', { security: [{ sessionKey: [] }] }, async (req) => ({ user: req.user }));
    expect((await app.inject({ url: '/me', cookies: { sid: 'abc' } })).json()).toEqual({ user: { id: 42 } });
    expect((await app.inject({ url: '/me', cookies: { sid: 'forged' } })).statusCode).toBe(401);
  });
});

describe('fromConnect: hostile requests and middleware', () => {
  it('a chunked body over bodyLimit is a 413 even though the Connect parser accepted it', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(fromConnect(express.json({ limit: '10mb' })));
    app.post('/small', { bodyLimit: 100 }, async (req) => ({ json: await req.json() }));
    const port = await listenOnFreePort(app);
    try {
      const body = JSON.stringify({ pad: 'x'.repeat(500) });
      const answer = await rawRequest(
        port,
        `POST /small HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
      expect(statusOf(answer)).toBe(413);
    } finally {
      await app.close();
    }
  });

  it('a header value with CRLF set by a Connect middleware is a 500, and the process lives', async () => {
    const { app } = appWith(fromConnect(setsHeader('x-evil', 'a\r\nSet-Cookie: admin=1')));
    const res = await app.inject('/hello');
    expect(res.statusCode).toBe(500);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect((await appWith().app.inject('/hello')).statusCode).toBe(200);
  });

  it('next() with a thrown non-Error value is a 500 that shows nothing of it', async () => {
    const { app } = appWith(fromConnect((_req: Req, _res: Res, next: Next) => next({ secret: 'token-123' })));
    const res = await app.inject('/hello');
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('token-123');
  });

  it('a middleware that calls next() twice runs the handler once', async () => {
    const { app, ran } = appWith(
      fromConnect((_req: Req, _res: Res, next: Next) => {
        next();
        next();
      }),
    );
    expect((await app.inject('/hello')).statusCode).toBe(200);
    expect(ran).toEqual(['hello']);
  });
});
