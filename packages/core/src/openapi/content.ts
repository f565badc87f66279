/**
 * Media types in the document: the request body a route accepts (`consumes`, JSON for a
 * `requestModel`) and the responses it produces other than JSON (`produces`).
 */
import { STATUS_CODES } from 'node:http';
import type { MediaTypeObject, ReferenceObject, RequestBodyObject, ResponseObject, ResponsesObject, SchemaObject } from 'openapi3-ts/oas31';
import { isJsonMediaType, mediaRanges } from '../http/media-types';
import { OpenAPIDocumentError } from './errors';

type Schema = SchemaObject | ReferenceObject | undefined;

/** The content of one media type: JSON and form types carry the schema, text is a string, binary has none. */
function mediaType(type: string, schema: Schema): MediaTypeObject {
  if (schema !== undefined && (isJsonMediaType(type) || type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded')) return { schema };
  if (type.startsWith('text/')) return { schema: { type: 'string' } };
  return {};
}

/**
 * The operation's request body, or `undefined` when it reads none: `consumes` lists its media
 * types; a `requestModel` alone means JSON.
 */
export function requestBodyOf(consumes: unknown, model: Schema, hasModel: boolean, where: string): RequestBodyObject | undefined {
  const ranges = checked(() => mediaRanges(consumes, where));
  if (!ranges && !hasModel) return undefined;
  const content: Record<string, MediaTypeObject> = {};
  for (const type of ranges ?? ['application/json']) content[type] = mediaType(type, model);
  return { required: true, content };
}

/** True when the body is read as JSON: a request model, or only JSON media types accepted. */
export function readsJson(consumes: unknown, hasModel: boolean): boolean {
  if (Array.isArray(consumes)) return consumes.length > 0 && consumes.every((t) => typeof t === 'string' && isJsonMediaType(t.toLowerCase()));
  return hasModel;
}

/**
 * Gives each status of `produces` its media types: a declared JSON schema is kept for JSON types,
 * text types are strings, other types have no schema. A status not yet in `responses` is added.
 */
export function applyProduces(responses: ResponsesObject, produces: unknown, where: string): void {
  if (produces === undefined) return;
  if (typeof produces !== 'object' || produces === null || Array.isArray(produces)) {
    throw invalid(`${where}: produces must map status codes to media types, e.g. { 200: 'image/png' }.`);
  }
  for (const [status, value] of Object.entries(produces)) {
    const types = [value].flat();
    if (!/^[1-5][0-9][0-9]$/.test(status) || types.length === 0 || !types.every((t) => typeof t === 'string' && /^[\w.+-]+\/[\w.+-]+$/.test(t))) {
      throw invalid(`${where}: produces[${status}] must be a status code with a media type or a list of them, e.g. { 200: 'image/png' }.`);
    }
    const existing = responses[status] as ResponseObject | undefined;
    const schema = existing?.content?.['application/json']?.schema;
    const content: Record<string, MediaTypeObject> = {};
    for (const type of types as string[]) content[type.toLowerCase()] = mediaType(type.toLowerCase(), schema);
    responses[status] = { ...(existing ?? { description: STATUS_CODES[status] ?? 'Response' }), content };
  }
}

function checked<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw invalid((err as Error).message);
  }
}

function invalid(message: string): OpenAPIDocumentError {
  return new OpenAPIDocumentError('TERN_INVALID_OPENAPI_METADATA', message);
}
