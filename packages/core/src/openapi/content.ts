/**
 * Media types in the document: the request body a route accepts (`consumes`, JSON for a
 * `requestModel`) and the responses it produces other than JSON (`produces`).
 */
import { STATUS_CODES } from 'node:http';
import type { MediaTypeObject, ReferenceObject, RequestBodyObject, ResponseObject, ResponsesObject, SchemaObject } from 'openapi3-ts/oas31';
import { isJsonType } from '../http/media-type';

type Schema = SchemaObject | ReferenceObject | undefined;

/** The content of one media type: JSON and form types carry the schema, text is a string, binary has none. */
function mediaType(type: string, schema: Schema): MediaTypeObject {
  if (schema !== undefined && (isJsonType(type) || type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded')) return { schema };
  if (type.startsWith('text/')) return { schema: { type: 'string' } };
  return {};
}

/**
 * The operation's request body, or `undefined` when it reads none: `consumes` lists its media
 * types; a `requestModel` alone means JSON. Form types get `formModel`, the model as a form sends it.
 */
export function requestBodyOf(ranges: readonly string[] | undefined, model: Schema, hasModel: boolean, formModel: Schema = model): RequestBodyObject | undefined {
  if (!ranges && !hasModel) return undefined;
  const content: Record<string, MediaTypeObject> = {};
  for (const type of ranges ?? ['application/json']) content[type] = mediaType(type, isFormType(type) ? formModel : model);
  return { required: true, content };
}

/** A form sends text fields only: its schema is the model without `null` (`SchemaRegistry.formRef`). */
export function isFormType(type: string): boolean {
  return type === 'multipart/form-data' || type === 'application/x-www-form-urlencoded';
}

/** True when the body is read as JSON: a request model, or only JSON media types accepted. */
export function readsJson(consumes: readonly string[] | undefined, hasModel: boolean): boolean {
  if (consumes) return consumes.every(isJsonType);
  return hasModel;
}

/**
 * Gives each status of `produces` its media types: a declared JSON schema is kept for JSON types,
 * text types are strings, other types have no schema. A status not yet in `responses` is added.
 */
export function applyProduces(responses: ResponsesObject, produces: Readonly<Record<number, string | readonly string[]>> | undefined): void {
  if (produces === undefined) return;
  for (const [status, value] of Object.entries(produces)) {
    const types = [value].flat();
    const existing = responses[status] as ResponseObject | undefined;
    const schema = existing?.content?.['application/json']?.schema;
    const content: Record<string, MediaTypeObject> = {};
    for (const type of types) content[type] = mediaType(type, schema);
    responses[status] = { ...(existing ?? { description: STATUS_CODES[status] ?? 'Response' }), content };
  }
}
