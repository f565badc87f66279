import type { IncomingMessage } from 'node:http';
import fastContentTypeParse from 'fast-content-type-parse';
import { requestError } from '../errors/request-error';

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
  try {
    return fastContentTypeParse.parse(header).type;
  } catch {
    throw requestError('TERN_BAD_CONTENT_TYPE', `Malformed Content-Type header '${header}'.`);
  }
}

/** JSON proper or any `+json` type. */
export function isJsonType(type: string): boolean {
  return type === JSON_TYPE || type.endsWith('+json');
}

/** Throws the 415 unless the request's media type is `expected`. */
export function assertMediaType(req: IncomingMessage, expected: string, what: string): void {
  const type = mediaTypeOf(req);
  if (type !== expected) {
    throw requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `Expected ${what} with Content-Type ${expected}, got ${type === undefined ? 'none' : `'${type}'`}.`);
  }
}
