/**
 * A request scope with tsyringe: middleware makes a child container per request, registers the
 * request's values in it and keeps it in `req.state`; handlers resolve request-scoped services
 * from it. Controllers themselves are singletons (resolved once, at startup), so a request value
 * can never be a constructor argument of a controller: it is read through the request.
 */
import { randomUUID } from 'node:crypto';
import type { Middleware, TernRequest } from '@tern/core';
import type { DependencyContainer } from 'tsyringe';
import { RequestContext } from './services';

const SCOPE = 'container';

/**
 * The middleware: a child of `root` per request, disposed when the response is done (also when
 * the handler throws: `next()` rejects and `finally` still runs).
 *
 * @example
 * app.addMiddleware(requestScope(container));
 */
export function requestScope(root: DependencyContainer): Middleware {
  return async (req, res, next) => {
    const scope = root.createChildContainer();
    const requestId = req.headers.get('x-request-id') ?? randomUUID();
    scope.register(RequestContext, { useValue: new RequestContext(requestId, req.headers.get('x-user') ?? 'anonymous') });
    req.state[SCOPE] = scope;
    try {
      const response = await next();
      return response.setHeader('x-request-id', requestId);
    } finally {
      await scope.dispose();
    }
  };
}

/**
 * The request's container (set by `requestScope`).
 *
 * @example
 * const audit = scopeOf(req).resolve(AuditTrail);
 */
export function scopeOf(req: TernRequest): DependencyContainer {
  const scope = req.state[SCOPE] as DependencyContainer | undefined;
  if (!scope) throw new Error('No request scope: add app.addMiddleware(requestScope(container)) before the routes that need it.');
  return scope;
}
