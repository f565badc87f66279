/**
 * Media types a route declares it accepts (`consumes`) and matching a request's Content-Type
 * against them. Compiled once per route; a request only calls the returned function.
 */
import fastContentTypeParse from 'fast-content-type-parse';
import { InvalidRouteError } from '../errors';
import { requestError } from '../errors/request-error';

/** `type/subtype`, `type/*` or `*` slash `*`: what `consumes` entries may be. */
const MEDIA_RANGE = /^(?:[a-z0-9!#$&^_.+-]+|\*)\/(?:[a-z0-9!#$&^_.+-]+|\*)$/;

/** True for `application/json` and every `+json` type (`application/merge-patch+json`). */
export function isJsonMediaType(type: string): boolean {
  return type === 'application/json' || type.endsWith('+json');
}

/**
 * Checks a route's `consumes` option and returns its media ranges, lowercased; `undefined` when
 * the route does not declare one. `where` names the route in the startup error.
 */
export function mediaRanges(consumes: unknown, where: string): string[] | undefined {
  if (consumes === undefined) return undefined;
  if (!Array.isArray(consumes) || consumes.length === 0 || !consumes.every((t) => typeof t === 'string' && MEDIA_RANGE.test(t.toLowerCase()))) {
    throw new InvalidRouteError(`${where}: consumes must be a non-empty list of media types such as 'application/octet-stream' or 'image/*'.`);
  }
  return consumes.map((t: string) => t.toLowerCase());
}

/**
 * The check a route with `consumes` runs before its handler: a request with a body whose
 * Content-Type is none of the ranges is a 415; a Content-Type that cannot be parsed is a 400.
 * A request without a body passes (the handler decides whether one is required).
 *
 * @example
 * const check = contentTypeCheck(['image/png', 'image/jpeg'], 'Route POST /avatar');
 * check?.(req.raw.headers['content-type'], req.hasBody); // throws the 415 for 'text/plain'
 */
export function contentTypeCheck(consumes: unknown, where: string): ((header: string | undefined, hasBody: boolean) => void) | undefined {
  const ranges = mediaRanges(consumes, where);
  if (!ranges) return undefined;
  const exact = new Set(ranges.filter((r) => !r.endsWith('/*')));
  const prefixes = ranges.filter((r) => r.endsWith('/*') && r !== '*/*').map((r) => r.slice(0, -1));
  if (ranges.includes('*/*')) return undefined;
  const accepted = ranges.join(', ');
  return (header, hasBody) => {
    if (!hasBody) return;
    if (header === undefined) throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `This route accepts ${accepted}; the request has no Content-Type.`);
    let type: string;
    try {
      type = fastContentTypeParse.parse(header).type;
    } catch {
      throw requestError('TERN_BAD_CONTENT_TYPE', `Malformed Content-Type header '${header}'.`);
    }
    if (exact.has(type) || prefixes.some((p) => type.startsWith(p))) return;
    throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `This route accepts ${accepted}, not '${type}'.`);
  };
}
