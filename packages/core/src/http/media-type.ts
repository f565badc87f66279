/**
 * Media types: the request's Content-Type as Tern's readers see it, and the check a route's
 * `consumes` ranges (checked once by the route options table) compile into.
 */

import type { IncomingMessage } from 'node:http';
import type FastContentTypeParse from 'fast-content-type-parse';
import { requestError } from '../errors/request-error';
import { onFirstUse } from './on-first-use';

/** The media types Tern's body readers understand. */
export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

/**
 * The request's media type, lowercased without parameters, or undefined without a
 * Content-Type header. A header that cannot be parsed is a 400.
 */
export function mediaTypeOf(req: IncomingMessage): string | undefined {
  const header = req.headers['content-type'];
  if (header === undefined) return undefined;
  // What JSON clients send, spelled exactly: nothing to parse.
  if (header === JSON_TYPE || header === 'application/json; charset=utf-8') return JSON_TYPE;
  return parseMediaType(header);
}

/** fast-content-type-parse, loaded for the first Content-Type header not spelled as JSON clients send it. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const fastContentTypeParse = onFirstUse(() => require('fast-content-type-parse') as typeof FastContentTypeParse);

/** A Content-Type header's media type, lowercased without parameters; a malformed header is a 400. */
function parseMediaType(header: string): string {
  try {
    return fastContentTypeParse().parse(header).type;
  } catch {
    throw requestError('TERN_BAD_CONTENT_TYPE', `Malformed Content-Type header '${header}'.`);
  }
}

/** JSON proper or any `+json` type. */
export function isJsonType(type: string): boolean {
  return type === JSON_TYPE || type.endsWith('+json');
}

/** Throws the 415 unless the request's media type is JSON (`application/json` or any `+json` type). */
export function assertJsonContentType(req: IncomingMessage): void {
  const type = mediaTypeOf(req);
  if (type === undefined) throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', 'Expected a JSON body with Content-Type application/json.');
  if (!isJsonType(type)) throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type application/json, got '${type}'.`);
}

/** Throws the 415 unless the request's media type is `expected`. */
export function assertMediaType(req: IncomingMessage, expected: string, what: string): void {
  const type = mediaTypeOf(req);
  if (type !== expected) {
    throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `Expected ${what} with Content-Type ${expected}, got ${type === undefined ? 'none' : `'${type}'`}.`);
  }
}

/**
 * The check a route with `consumes` runs before its handler: a request with a body whose
 * Content-Type is none of the ranges (lowercased, as the route options table leaves them) is a
 * 415; a Content-Type that cannot be parsed is a 400. A request without a body passes (the
 * handler decides whether one is required). `undefined` when every type is accepted.
 *
 * @example
 * const check = contentTypeCheck(['image/png', 'image/jpeg']);
 * check?.(req.raw.headers['content-type'], req.hasBody); // throws the 415 for 'text/plain'
 */
export function contentTypeCheck(ranges: readonly string[] | undefined): ((header: string | undefined, hasBody: boolean) => void) | undefined {
  if (!ranges || ranges.includes('*/*')) return undefined;
  const exact = new Set(ranges.filter((r) => !r.endsWith('/*')));
  const prefixes = ranges.filter((r) => r.endsWith('/*')).map((r) => r.slice(0, -1));
  const accepted = ranges.join(', ');
  return (header, hasBody) => {
    if (!hasBody) return;
    if (header === undefined) throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `This route accepts ${accepted}; the request has no Content-Type.`);
    const type = parseMediaType(header);
    if (exact.has(type) || prefixes.some((p) => type.startsWith(p))) return;
    throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `This route accepts ${accepted}, not '${type}'.`);
  };
}
