/**
 * What docs/middleware.md promises about `next()`: it rejects when something inside fails (the
 * error answer is made after the chain, by the exception handlers), so timing and logging
 * middleware use try/finally; headers recorded on `res` are kept on the error answer, and
 * `res.statusCode` is the status so far (the error's status is on the error).
 */
import { HTTPException, TernApp, type Middleware } from '@tern/core';

function timedApp(seen: Array<{ path: string; status: number; failed: boolean }>) {
  const timing: Middleware = async (req, res, next) => {
    const start = performance.now();
    let status = 500;
    try {
      const response = await next();
      status = response.statusCode;
      return response;
    } catch (error) {
      status = error instanceof HTTPException ? error.status : 500;
      throw error; // the exception handlers answer it
    } finally {
      res.setHeader('server-timing', `app;dur=${(performance.now() - start).toFixed(1)}`);
      seen.push({ path: req.url.path, status, failed: status >= 400 });
    }
  };
  const app = new TernApp({ logger: false });
  app.addMiddleware(timing);
  app.get('/ok', async (req, res) => res.status(201).json({ ok: true }));
  app.get('/teapot', async () => {
    throw new HTTPException(418, 'I am a teapot', { 'retry-after': '5' });
  });
  app.get('/crash', async () => {
    throw new Error('database down');
  });
  return app;
}

test('a try/finally timing middleware stamps successes, HTTP errors, crashes and 404s alike', async () => {
  const seen: Array<{ path: string; status: number; failed: boolean }> = [];
  const app = timedApp(seen);
  const answers = await Promise.all(['/ok', '/teapot', '/crash', '/nowhere'].map((url) => app.inject(url)));
  expect(answers.map((a) => a.statusCode)).toEqual([201, 418, 500, 404]);
  for (const answer of answers) expect(answer.headers['server-timing']).toMatch(/^app;dur=\d+\.\d$/);
  expect(answers[1].headers['retry-after']).toBe('5');
  expect(seen.sort((a, b) => a.path.localeCompare(b.path))).toEqual([
    { path: '/crash', status: 500, failed: true },
    { path: '/nowhere', status: 404, failed: true },
    { path: '/ok', status: 201, failed: false },
    { path: '/teapot', status: 418, failed: true },
  ]);
});

test('without try/finally, code after `await next()` does not run when the handler throws', async () => {
  const app = new TernApp({ logger: false });
  app.addMiddleware(async (req, res, next) => {
    const response = await next();
    return response.setHeader('x-after', 'yes');
  });
  app.get('/crash', async () => {
    throw new Error('boom');
  });
  const res = await app.inject('/crash');
  expect(res.statusCode).toBe(500);
  expect(res.headers['x-after']).toBeUndefined();
});

test('res.statusCode and res.headers show what was recorded so far; headers set before next() survive an error', async () => {
  const app = new TernApp({ logger: false });
  let statusWhenRejected: number | undefined;
  app.addMiddleware(async (req, res, next) => {
    res.setHeader('x-request-id', 'abc');
    try {
      return await next();
    } catch (error) {
      statusWhenRejected = res.statusCode;
      throw error;
    }
  });
  app.get('/ok', async (req, res) => res.setHeader('X-Custom', '1').status(202).json({}));
  app.get('/fail', async () => {
    throw new HTTPException(409, 'taken');
  });
  const ok = await app.inject('/ok');
  expect([ok.statusCode, ok.headers['x-custom'], ok.headers['x-request-id']]).toEqual([202, '1', 'abc']);
  const failed = await app.inject('/fail');
  expect([failed.statusCode, failed.headers['x-request-id']]).toEqual([409, 'abc']);
  expect(statusWhenRejected).toBe(200); // not decided yet: the error carries the status
});
