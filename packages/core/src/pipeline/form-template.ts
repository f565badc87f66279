/**
 * `formTemplate`: a page route whose request model rejects the submitted form (or whose handler
 * throws a 422 `TERN_VALIDATION_FAILED` with field errors, as `FormError` does) renders the form
 * again (status 422) with the errors grouped per field, the values as submitted and the page's
 * own data (`formContext`), instead of the JSON problem. The body is not read twice: the
 * reader's result is cached on the request.
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
  const load = route.spec.formContext;
  return async (req, res, err) => {
    // A 422 of the model, or the handler's own (`FormError`: a wrong password, a taken slug).
    if (!(err instanceof HTTPException) || err.code !== 'TERN_VALIDATION_FAILED') throw err;
    const values = req.hasBody ? await read(req).catch(() => ({})) : {};
    // The page's own data first (the post a comment form sits under); a failing loader is the page's failure.
    const page = load === undefined ? {} : await load(req, res);
    const context: FormErrorContext = { errors: groupErrors(err), values: isObjectBody(values) ? values : {} };
    return res.render(template, { ...(isObjectBody(page) ? page : {}), ...context }, 422);
  };
}

/** `[{ path: 'email', message }, …]` → `{ email: [message, …] }`, in the order reported. */
export function groupErrors(err: HTTPException): Record<string, string[]> {
  const grouped: Record<string, string[]> = Object.create(null);
  for (const { path, message } of err.errors ?? []) (grouped[path] ??= []).push(message);
  return grouped;
}
