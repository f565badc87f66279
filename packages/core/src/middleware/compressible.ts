/** Types whose bodies compress well even though they are not `text/*` (and not `+json`/`+xml`). */
const COMPRESSIBLE = new Set([
  'application/json',
  'application/javascript',
  'application/x-javascript',
  'application/ecmascript',
  'application/xml',
  'application/x-ndjson',
  'application/x-www-form-urlencoded',
  'application/graphql',
  'application/wasm',
  'application/rtf',
  'application/x-sh',
  'application/x-tar',
  'font/ttf',
  'font/otf',
  'image/bmp',
  'image/x-icon',
  'image/vnd.microsoft.icon',
]);

/**
 * Whether a `Content-Type` names a body worth compressing: text, JSON, XML, JavaScript and a few
 * uncompressed binary formats. Types already compressed (images, audio, video, fonts in woff,
 * zip, gzip, PDF…) and unknown types are not: compressing them again costs CPU and can make them
 * larger. This is the `compressible` package's rule, written out for the types an API sends.
 *
 * @example
 * isCompressibleType('application/problem+json; charset=utf-8'); // true
 * isCompressibleType('image/png');                               // false
 */
export function isCompressibleType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const semicolon = contentType.indexOf(';');
  const type = (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase();
  // text/event-stream is flushed event by event; buffering it to compress would hold events back.
  if (type === 'text/event-stream') return false;
  if (type.startsWith('text/')) return true;
  if (type.endsWith('+json') || type.endsWith('+xml') || type.endsWith('+text')) return true;
  return COMPRESSIBLE.has(type);
}
