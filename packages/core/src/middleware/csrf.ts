/**
 * `csrf()`: cross-site request forgery protection by signed double-submit cookie (OWASP). A
 * random token, signed with the app's secret, lives in a `SameSite=Lax`, `HttpOnly` cookie; the
 * site's own pages put the same token in their forms (`{{ csrfField() }}`) or send it in a
 * header. An unsafe request passes only when the two agree and the signature holds, and never
 * when the browser says it comes from another site (`Sec-Fetch-Site`, `Origin`). Behind
 * `session()`, the token lives in the visitor's session instead (synchronizer token): a token
 * is good for that session only, so an attacker's own cookie-and-token pair is worthless.
 */
import { nodeCrypto } from '../http/node-crypto';
import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import { FORM_TYPE, mediaTypeOf, MULTIPART_TYPE } from '../http/media-type';
import type { TernRequest } from '../http/request';
import { SESSION } from '../http/session';
import { sign, signingKey, unsign } from '../http/signing';
import type { Middleware } from '../routing/types';

/**
 * Options of `csrf()`.
 *
 * @example
 * const options: CsrfOptions = { secret: process.env.CSRF_SECRET, ignore: (req) => req.path.startsWith('/webhooks/') };
 */
export interface CsrfOptions {
  /** Key the cookie is signed with; default the app's `MakeConfig.secret` (else a per-process key). */
  secret?: string;
  /** Form field holding the token (default `_csrf`). */
  fieldName?: string;
  /** Header holding the token, for `fetch` and uploads that stream (default `x-csrf-token`). */
  headerName?: string;
  /** Requests the check skips (webhooks signed another way); they still get a token. */
  ignore?: (req: TernRequest) => boolean;
}

/** Methods that change nothing by contract: they get a token, never a check. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Refuses POST, PUT, PATCH and DELETE requests that do not carry the token of the visitor's
 * signed cookie (form field `_csrf`, or header `x-csrf-token`), or that the browser marks as
 * sent from another site: 403 `TERN_CSRF_INVALID`, an HTML error page for pages. Every request
 * gets `res.locals.csrfToken` (and the cookie, the first time), which templates print with
 * `{{ csrfField() }}`. Add it as app middleware, before the routes that read forms.
 *
 * @example
 * app.addMiddleware(csrf());
 * // templates/contact.html: <form method="post">{{ csrfField() }} … </form>
 * // fetch('/api/notes', { method: 'POST', headers: { 'x-csrf-token': token }, body })
 */
export function csrf(options: CsrfOptions = {}): Middleware {
  if (typeof options !== 'object' || options === null) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'csrf(options): options must be an object.');
  const fieldName = options.fieldName ?? '_csrf';
  const headerName = (options.headerName ?? 'x-csrf-token').toLowerCase();
  if (typeof fieldName !== 'string' || fieldName === '' || typeof headerName !== 'string' || headerName === '') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'csrf(options): fieldName and headerName must be non-empty strings.');
  }
  if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length < 16)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'csrf(options): secret must be a string of at least 16 characters.');
  }
  const ignore = options.ignore;
  // Without a route nothing acts on the request: its 404 or 405 says more than a 403 would.
  const mustCheck = (req: TernRequest) => req.route !== undefined && !SAFE_METHODS.has(req.method) && !ignore?.(req);
  const keys = new Map<string | undefined, Buffer>();
  const keyFor = (req: TernRequest) => {
    const secret = options.secret ?? req.signingSecret;
    let key = keys.get(secret);
    if (!key) keys.set(secret, (key = signingKey(secret, 'csrf')));
    return key;
  };

  return async (req, res, next) => {
    const session = req[SESSION];
    if (session !== undefined) {
      if (mustCheck(req)) {
        if (comesFromAnotherSite(req)) throw refused('the request was sent from another site');
        const expected = session.csrfToken(false);
        const sent = req.headers.get(headerName) ?? (await tokenInBody(req, fieldName));
        if (expected === undefined || sent === undefined || !sameText(sent, expected)) throw refused('the CSRF token is missing or is not this session\'s; load the form again');
      }
      // Made (and stored in the session) only when a page asks for it: JSON routes create no session.
      Object.defineProperty(res.locals, 'csrfToken', { get: () => session.csrfToken(true), enumerable: true, configurable: true });
      res.locals.csrfFieldName = fieldName;
      return next();
    }
    const key = keyFor(req);
    const cookieName = req.protocol === 'https' ? '__Host-tern_csrf' : 'tern_csrf';
    const cookie = req.cookies.get(cookieName);
    const valid = cookie !== undefined && unsign(key, cookie) !== undefined ? cookie : undefined;
    if (mustCheck(req)) {
      if (comesFromAnotherSite(req)) throw refused('the request was sent from another site');
      if (valid === undefined) throw refused('the CSRF cookie is missing or invalid; load the form again');
      const sent = req.headers.get(headerName) ?? (await tokenInBody(req, fieldName));
      if (sent === undefined || !sameText(sent, valid)) throw refused('the CSRF token is missing or does not match');
    }
    const token = valid ?? sign(key, nodeCrypto().randomBytes(24).toString('base64url'));
    res.locals.csrfToken = token;
    res.locals.csrfFieldName = fieldName;
    const response = await next();
    if (valid === undefined) {
      response.setCookie(cookieName, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
    }
    return response;
  };
}

/** Fetch metadata and Origin, which browsers set and pages cannot forge. */
function comesFromAnotherSite(req: TernRequest): boolean {
  if (req.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = req.headers.get('origin');
  if (origin === undefined) return false;
  if (origin === 'null') return true;
  try {
    return new URL(origin).host !== req.host;
  } catch {
    return true;
  }
}

/** The token field of a urlencoded or multipart form (both read once and kept for the handler). */
async function tokenInBody(req: TernRequest, fieldName: string): Promise<string | undefined> {
  if (!req.hasBody) return undefined;
  const type = mediaTypeOf(req.raw);
  // A multipart body is read with the route's own limits (`req.multipart()`'s default): the handler gets the same result.
  const fields = type === FORM_TYPE ? await req.form() : type === MULTIPART_TYPE ? (await req.multipart()).fields : undefined;
  const value = fields?.[fieldName];
  return typeof value === 'string' ? value : undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && nodeCrypto().timingSafeEqual(left, right);
}

function refused(why: string) {
  return requestError('TERN_CSRF_INVALID', `Forbidden: ${why}.`);
}
