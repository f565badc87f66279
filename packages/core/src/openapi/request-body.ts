/**
 * An operation's `requestBody`: the model's schema under each media type the route consumes
 * (`multipart/form-data` by default), and for `multipart/form-data` the model's text fields plus
 * the file fields a controller's upload decorators declare, as `format: binary` strings. Form
 * types get `formModel`, the model without `null` (a form field cannot carry it).
 */
import type { ReferenceObject, RequestBodyObject, SchemaObject } from 'openapi3-ts/oas31';
import type { UploadField } from '../routing/route-info';
import { isFormType } from './content';

type Schema = SchemaObject | ReferenceObject;

const BINARY: SchemaObject = { type: 'string', format: 'binary' };

export function describeRequestBody(model: Schema | undefined, consumes: readonly string[] | undefined, uploads: readonly UploadField[], formModel = model): RequestBodyObject {
  const content: RequestBodyObject['content'] = {};
  // `consumes` as the options table lowercased it (the scanner adds multipart to a route with uploads).
  for (const type of consumes ?? ['multipart/form-data']) {
    if (type === 'multipart/form-data') content[type] = multipart(formModel, uploads);
    else if (model !== undefined) content[type] = { schema: isFormType(type) ? formModel : model };
  }
  // A route with upload parameters reads a multipart body: without one it answers 415, so the body
  // is required even when every file field is optional.
  return { required: true, content };
}

function multipart(model: Schema | undefined, uploads: readonly UploadField[]): RequestBodyObject['content'][string] {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  const encoding: Record<string, { contentType: string }> = {};
  let anyFile = false;
  for (const upload of uploads) {
    if (upload.name === undefined) {
      anyFile = true;
      continue;
    }
    properties[upload.name] = upload.multiple ? { type: 'array', items: { ...BINARY } } : { ...BINARY };
    if (upload.required) required.push(upload.name);
    if (upload.mimeTypes) encoding[upload.name] = { contentType: upload.mimeTypes.join(', ') };
  }
  const files: SchemaObject = { type: 'object', properties };
  if (required.length > 0) files.required = required;
  // `@UploadedFiles()` takes files under any name: any further property may be a file.
  if (anyFile) files.additionalProperties = { ...BINARY };
  const schema: Schema = model === undefined ? files : { allOf: [model, files] };
  return Object.keys(encoding).length > 0 ? { schema, encoding } : { schema };
}
