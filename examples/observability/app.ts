/**
 * A small API with request logs (pino), ids, traces and metrics. `main.ts` starts telemetry first
 * and serves it; `app.test.ts` checks each part as an operator would see it.
 */
import { HTTPException, TernApp, type Middleware, type TernLogger } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';
import { addMetrics } from './metrics';

const USERS = new Map([
  [1, { id: 1, name: 'Ada' }],
  [2, { id: 2, name: 'Grace' }],
]);

/** App middleware: tells the client how long the app took (`Server-Timing`), errors included. */
const timing: Middleware = async (req, res, next) => {
  const started = performance.now();
  try {
    return await next();
  } finally {
    res.setHeader('server-timing', `app;dur=${(performance.now() - started).toFixed(1)}`);
  }
};

export function buildApp(logger: TernLogger | true): TernApp {
  const app = new TernApp({
    logger,
    log: { redact: ['user.email'] },
    // The proxy in front sets it (nginx: proxy_set_header X-Request-Id $request_id), so its access
    // log and ours share ids. Without this line Tern generates every id and adopts none.
    requestIdHeader: 'X-Request-Id',
    openapi: exampleOpenAPI({ title: 'Observability example', description: 'Request logs, ids, traces and metrics.', tags: [{ name: 'users', description: 'A small user store.' }, { name: 'reports', description: 'A report that always fails.' }] }),
  });
  app.addMiddleware(timing);
  const user = { summary: 'Get a user', description: 'Logs through req.log, bound to the request id.', tags: ['users'], problems: { 404: 'No such user' } };
  app.get('/users/{id:int}', user, async (req, res, { id }: { id: number }) => {
    req.log.info({ userId: id }, 'looking the user up');
    const user = USERS.get(id);
    if (!user) throw new HTTPException(404, `No user ${id}.`);
    return user;
  });
  const report = { summary: 'A failing report', description: 'Always fails, to show a 500 recorded on its span and logged with the request id.', tags: ['reports'] };
  app.get('/reports/{year:int}', report, async () => {
    throw new Error('the reporting database is down');
  });
  addMetrics(app);
  return app;
}
