import { HTTPException, MakeConfig, TernApp } from '@tern/core';

class NotInStock extends Error {}
class NotInStockAnywhere extends NotInStock {}

describe('errors and exception handlers', () => {
  it('sends an HTTPException as a problem with its status, detail and headers', async () => {
    const app = new TernApp();
    app.get('/limited', async () => {
      throw new HTTPException(429, 'Slow down', { 'Retry-After': '30' });
    });
    const response = await app.inject('/limited');
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('30');
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(response.json()).toEqual({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Slow down', instance: '/limited' });
  });

  it('hides the message and stack of a 500 unless debug is on', async () => {
    const boom = async () => {
      throw new Error('secret detail');
    };
    const quiet = new TernApp({ logger: false });
    quiet.get('/boom', boom);
    const hidden = await quiet.inject('/boom');
    expect(hidden.statusCode).toBe(500);
    expect(hidden.body).not.toMatch(/secret detail|at .*\.ts/);

    const loud = new TernApp({ logger: false, config: new MakeConfig({ debug: true }) });
    loud.get('/boom', boom);
    const shown = (await loud.inject('/boom')).json();
    expect(shown.detail).toBe('secret detail');
    expect(shown.stack).toContain('Error: secret detail');
  });

  it('reports a handler that returned nothing (message only in debug)', async () => {
    const app = new TernApp({ logger: false, config: new MakeConfig({ debug: true }) });
    app.get('/nothing', (async () => undefined) as any);
    const response = await app.inject('/nothing');
    expect(response.statusCode).toBe(500);
    expect(response.json().detail).toMatch(/did not return a response/);
  });

  it('logs unexpected errors to the configured logger', async () => {
    const logger = { error: jest.fn() };
    const app = new TernApp({ logger });
    app.get('/boom', async () => {
      throw new Error('logged');
    });
    await app.inject('/boom');
    expect(logger.error).toHaveBeenCalledWith(expect.stringContaining('GET /boom'), expect.objectContaining({ message: 'logged' }));
  });

  it('routes framework answers (404) to a status handler', async () => {
    const app = new TernApp();
    app.addExceptionHandler(404, async (req, res) => res.json({ message: `Nothing at ${req.url.path}` }, 404));
    const response = await app.inject('/missing');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ message: 'Nothing at /missing' });
  });

  it('lets a 500 handler catch every other error', async () => {
    const app = new TernApp({ logger: false });
    app.addExceptionHandler(500, async (req, res, exc: Error) => res.json({ oops: exc.constructor.name }, 500));
    app.get('/boom', async () => {
      throw new TypeError('x');
    });
    expect((await app.inject('/boom')).json()).toEqual({ oops: 'TypeError' });
  });

  it('matches class handlers on subclasses, before status handlers', async () => {
    const app = new TernApp();
    app.addExceptionHandler(NotInStock, async (req, res, exc) => res.json({ outOfStock: exc.message }, 409));
    app.get('/buy', async () => {
      throw new NotInStockAnywhere('widget');
    });
    const response = await app.inject('/buy');
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ outOfStock: 'widget' });
  });

  it('falls back to the plain problem when an exception handler throws', async () => {
    const app = new TernApp({ logger: false });
    app.addExceptionHandler(404, async () => {
      throw new Error('handler broke');
    });
    const response = await app.inject('/missing');
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('handler broke');
  });

  it('explains in debug mode why no route matched', async () => {
    const app = new TernApp({ config: new MakeConfig({ debug: true }) });
    app.get('/users/{id:int}', async () => ({}));
    app.post('/users', async () => ({}));
    const notFound = (await app.inject('/users/abc/x')).json();
    expect(notFound.reasons).toEqual([
      'GET /users/{id:int}: path does not match /users/{id:int}',
      'POST /users: path does not match /users',
    ]);
    const notAllowed = (await app.inject({ method: 'DELETE', url: '/users' })).json();
    expect(notAllowed.reasons).toContain('POST /users: method DELETE is not accepted');
  });

  it('still answers 500 when the logger itself throws', async () => {
    const app = new TernApp({
      logger: {
        error: () => {
          throw new Error('log sink down');
        },
      },
    });
    app.get('/boom', async () => {
      throw new Error('boom');
    });
    const response = await app.inject('/boom');
    expect(response.statusCode).toBe(500);
  });

  it('validates exception handler registrations', () => {
    const app = new TernApp();
    expect(() => app.addExceptionHandler(200, async (req, res) => res)).toThrow(RangeError);
  });
});
