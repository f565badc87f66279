import { HTTPException } from '../../errors/http-exception';
import { TernError } from '../../errors/tern-error';

/**
 * What `next(err)` from a Connect middleware becomes in Tern's exception handling. An error with
 * an `err.status` or `err.statusCode` from 400 to 599 (http-errors' shape, which body-parser,
 * passport and express-rate-limit use) is that HTTPException; its message is shown when
 * http-errors would expose it (`err.expose`, else for 4xx only) and its `err.headers` are kept.
 * Anything else is thrown as it is: an unexpected error, answered 500 without its message.
 */
export function fromConnectError(err: unknown): unknown {
  if (err instanceof HTTPException) return err;
  if (err === 'route' || err === 'router') {
    return new TernError('TERN_CONNECT_NEXT_ROUTE', `A Connect middleware called next('${err}'): Tern's chains have no next route or router to skip to.`);
  }
  if (typeof err !== 'object' || err === null) return err;
  const fields = err as { status?: unknown; statusCode?: unknown; expose?: unknown; message?: unknown; headers?: unknown };
  const status = typeof fields.status === 'number' ? fields.status : fields.statusCode;
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return err;
  const expose = typeof fields.expose === 'boolean' ? fields.expose : status < 500;
  const detail = expose && typeof fields.message === 'string' && fields.message !== '' ? fields.message : undefined;
  return new HTTPException(status, detail, stringHeaders(fields.headers));
}

/** `err.headers` as http-errors carries them (`Retry-After` on a 429, `Allow` on a 405), strings only. */
function stringHeaders(headers: unknown): Record<string, string> | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (typeof value === 'string' || typeof value === 'number') out[name] = String(value);
  return Object.keys(out).length > 0 ? out : undefined;
}
