import type { BodyLimits } from '../http/body';
import type { CompiledRoute } from '../routing/compile';
import type { Middleware } from '../routing/types';
import { compose, type Step } from './chain';
import { useRouteLimits } from '../http/request';
import { routeLimits, routeTerminal, type TerminalOptions } from './terminal';
import { withRateLimit, type RateLimitContext } from './rate-limit';

/** A compiled route ready to serve: app middleware, its own middleware, body checks and handler in one function. */
export interface ServedRoute extends CompiledRoute {
  readonly dispatch: Step;
}

/**
 * Composes each route's whole chain once, at startup: the app's middleware (first added
 * outermost), then the route's (outer containers first), then the route's `rateLimit` (after the
 * middleware, so `enforceSecurity` has set `req.user`), then the terminal step. A request
 * only calls `dispatch`; nothing is looked up or composed per request.
 */
export function serveRoutes(routes: readonly CompiledRoute[], appMiddleware: readonly Middleware[], options: TerminalOptions & { rateLimit: RateLimitContext }): ServedRoute[] {
  // The compiled route gains its `dispatch` in place: a spread copy with one more key took
  // ~650 bytes per route for the life of the app (V8 gives such a copy a map of its own).
  return routes.map((route) => {
    const limits = routeLimits(route, options.limits);
    const middleware = route.middleware.length === 0 ? appMiddleware : appMiddleware.length === 0 ? route.middleware : [...appMiddleware, ...route.middleware];
    (route as { dispatch?: Step }).dispatch = withRouteLimits(limits, compose(middleware, withRateLimit(route, routeTerminal(route, limits, options), options.rateLimit)), options);
    return route as ServedRoute;
  });
}

/** A route with its own body limits hands them to the request before any middleware can read the body. */
function withRouteLimits(limits: BodyLimits, chain: Step, options: TerminalOptions): Step {
  if (limits === options.limits) return chain;
  return (req, res) => {
    useRouteLimits(req, limits);
    return chain(req, res);
  };
}

/** The largest body any route (or the app) accepts: what the server refuses before routing (`Expect: 100-continue`). */
export function largestBodyLimit(routes: readonly CompiledRoute[], limits: BodyLimits): number {
  let largest = Math.max(limits.bodyLimit, limits.multipartLimit);
  for (const route of routes) {
    const own = routeLimits(route, limits);
    if (own !== limits) largest = Math.max(largest, own.bodyLimit, own.multipartLimit);
  }
  return largest;
}
