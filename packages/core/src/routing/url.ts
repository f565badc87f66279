import { UrlGenerationError } from '../errors';
import { URLPath, type QueryValue } from '../structs';
import { hasDecodedDotSegment } from './dot-segments';
import type { CompiledRoute } from './compile';

/**
 * Builds the path of a named route: each path parameter through its converter's `toString`
 * (checked against the converter's pattern, so the URL is one the app will match), the other
 * params as the query string.
 */
export function buildUrl(route: CompiledRoute, params: Record<string, unknown>): string {
  const rest: Record<string, QueryValue> = { ...(params as Record<string, QueryValue>) };
  let path = '';
  for (const part of route.path.parts) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    if (!(part.name in rest) || rest[part.name] === undefined) {
      throw new UrlGenerationError(`urlFor('${route.name}'): missing path parameter '${part.name}' for ${route.rawPath}.`);
    }
    let text: string;
    try {
      text = part.convertor.toString(rest[part.name]);
    } catch (err) {
      throw new UrlGenerationError(`urlFor('${route.name}'): parameter '${part.name}': ${(err as Error).message}`);
    }
    if (!part.pattern.test(text)) {
      throw new UrlGenerationError(
        `urlFor('${route.name}'): '${text}' is not a valid ${part.converterName} for parameter '${part.name}'.`,
      );
    }
    const segments = part.converterName === 'path' ? text.split('/') : [text];
    // Tern refuses '.' and '..' segments (clients and proxies rewrite them), so never emit one.
    if (hasDecodedDotSegment(text)) {
      throw new UrlGenerationError(`urlFor('${route.name}'): parameter '${part.name}' would make a '.' or '..' path segment.`);
    }
    delete rest[part.name];
    path += segments.map(encodeURIComponent).join('/');
  }
  return new URLPath(path || '/').addQueryParams(rest).toString();
}
