/**
 * Filtering fails closed: on a route that declares any response model, a JSON body sent with a
 * success (or redirect) status that no declaration covers would leave the server unfiltered. Such
 * a status gets `null` (http/response.ts): `res.json(entity, 201)` on a route that declares only
 * 200 is answered 500 (`TERN_UNDECLARED_RESPONSE_STATUS`) unless the status changes to a declared
 * one before the response is written. Error statuses (4xx/5xx) are error bodies, written by Tern
 * or an exception handler, and keep their own rules.
 */
import type { JsonSerializers } from '../http/response';
import type { ResponseSerializers } from '../serialization/compile';

/** `serializers`, refusing what no declaration of `declared` (statuses, `2XX` ranges, `default`) covers. */
export function failClosed(serializers: ResponseSerializers, declared: readonly string[]): JsonSerializers {
  const keys = new Set(declared.map((key) => key.toUpperCase()));
  if (keys.has('DEFAULT')) return serializers;
  return {
    forStatus(statusCode) {
      const serializer = serializers.forStatus(statusCode);
      if (serializer !== undefined || statusCode >= 400 || keys.has(String(statusCode)) || keys.has(`${String(statusCode)[0]}XX`)) return serializer;
      return null;
    },
  };
}
