/**
 * How a route with a `requestModel` reads the input to validate, chosen once per route in
 * `ready()` from its `consumes`: JSON alone (the default) is `req.json()` as before; with forms
 * or multipart declared, the request's Content-Type picks the reader and any other type is a 415
 * naming the accepted ones.
 */
import { requestError } from '../errors/request-error';
import { FORM_TYPE, isJsonType, JSON_TYPE, mediaTypeOf, MULTIPART_TYPE } from '../http/media-type';
import type { TernRequest } from '../http/request';
import type { CompiledRoute } from '../routing/compile';

export type BodyInput = (req: TernRequest) => Promise<unknown>;

const readJson: BodyInput = (req) => req.json();

export function compileBodyInput(route: CompiledRoute): BodyInput {
  // The options table checked that `consumes` lists only types a request model can be read from.
  const { consumes } = route.spec;
  if (consumes === undefined) return readJson;
  const accepted = new Set(consumes);
  if (accepted.size === 1 && accepted.has(JSON_TYPE)) return readJson;
  const json = accepted.has(JSON_TYPE);
  const form = accepted.has(FORM_TYPE);
  const parts = accepted.has(MULTIPART_TYPE);
  const list = [...accepted].join(', ');
  return (req) => {
    let type: string | undefined;
    try {
      type = mediaTypeOf(req.raw);
    } catch (err) {
      return Promise.reject(err);
    }
    if (type !== undefined) {
      if (json && isJsonType(type)) return req.json();
      if (form && type === FORM_TYPE) return req.form();
      if (parts && type === MULTIPART_TYPE) return req.multipart().then((body) => body.fields);
    }
    return Promise.reject(requestError('TERN_UNSUPPORTED_MEDIA_TYPE', `Expected Content-Type ${list}, got ${type === undefined ? 'none' : `'${type}'`}.`));
  };
}
