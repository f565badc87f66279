import type { AnyRoutes } from '../routing/routes';

/**
 * Routes whose handler rejects request input the document cannot see otherwise: a controller's
 * typed query, header or cookie parameters and `@Query()` models answer 422 on a bad value,
 * just as a `requestModel` or a path converter does. The scanner marks them; the document builder
 * gives them their 422 response. A WeakSet rather than a route option: this is what Tern knows
 * about a handler it built, not something users declare (nor something `route.extra` shows).
 */
const checked = new WeakSet<AnyRoutes>();

export function markChecksInput(route: AnyRoutes): void {
  checked.add(route);
}

export function checksInput(route: AnyRoutes): boolean {
  return checked.has(route);
}
