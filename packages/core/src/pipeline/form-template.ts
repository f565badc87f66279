/**
 * `formTemplate`: a page route whose request model rejects the submitted form renders the form
 * again (status 422) with the errors grouped per field and the values as submitted, instead of
 * the JSON problem. The body is not read twice: the reader's result is cached on the request.
 */
import { HTTPException } from '../errors';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { CompiledRoute } from '../routing/compile';
import { isObjectBody } from '../validation/types';
import type { BodyInput } from './body-input';

/**
 * What the form template receives on a 422, besides `res.locals`.
 *
 * @example
 * const context: FormErrorContext = { errors: { email: ['email must be an email'] }, values: { email: 'ada@' } };
 */
export interface FormErrorContext {
  /** Messages by field path (`''` for the body as a whole): `{ email: ['email must be an email'] }`. */
  errors: Record<string, string[]>;
  /** The fields as the visitor sent them, to fill the form in again. */
  values: Record<string, unknown>;
}

type ShowForm = (req: TernRequest, res: TernResponse, err: unknown) => Promise<TernResponse>;

/** The step that answers a rejected form with its template; undefined when the route has none. */
export function formRerender(route: CompiledRoute, read: BodyInput): ShowForm | undefined {
  const template = route.spec.formTemplate;
  if (template === undefined) return undefined;
  return async (req, res, err) => {
    if (!(err instanceof HTTPException) || err.code !== 'TERN_VALIDATION_FAILED') throw err;
    const values = req.hasBody ? await read(req).catch(() => ({})) : {};
    const context: FormErrorContext = { errors: groupErrors(err), values: isObjectBody(values) ? values : {} };
    return res.render(template, context as unknown as Record<string, unknown>, 422);
  };
}

/** `[{ path: 'email', message }, …]` → `{ email: [message, …] }`, in the order reported. */
export function groupErrors(err: HTTPException): Record<string, string[]> {
  const grouped: Record<string, string[]> = Object.create(null);
  for (const { path, message } of err.errors ?? []) (grouped[path] ??= []).push(message);
  return grouped;
}
