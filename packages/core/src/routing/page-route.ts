import { PAGE_HANDLER } from '../http/templates';
import type { CompiledRoute } from './compile';

/**
 * A route that answers with HTML pages: its handler was made with `render()`, it re-renders a
 * form (`formTemplate`), or it declares `text/html` in `produces`. Its errors become error pages
 * for browsers, and a path value its converter rejects is a 404 (a page that does not exist)
 * rather than a 422.
 */
export function isPageRoute(route: Pick<CompiledRoute, 'handler' | 'spec'>): boolean {
  if (typeof route.handler === 'function' && (route.handler as unknown as Record<symbol, unknown>)[PAGE_HANDLER] === true) return true;
  // The checked spec, as every consumer of route options reads it (routing/route-options.ts).
  const { formTemplate, produces } = route.spec;
  if (formTemplate !== undefined) return true;
  return produces !== undefined && Object.values(produces).some((types) => ([] as string[]).concat(types).some((type) => /^text\/html\b/i.test(type)));
}
