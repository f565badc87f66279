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
import { TernTypeError, type HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import { FORM_TYPE, mediaTypeOf, MULTIPART_TYPE } from '../http/media-type';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
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
  /** Requests the check skips (webhooks signed another way): never checked, and never given the cookie. */
  ignore?: (req: TernRequest) => boolean;
}

/** Methods that change nothing by contract: they get a token, never a check. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/**
 * Refuses POST, PUT, PATCH and DELETE requests that do not carry the token of the visitor's
 * signed cookie (form field `_csrf`, or header `x-csrf-token`), or that the browser marks as
 * sent from another site (Origin: scheme, host and port): 403 `TERN_CSRF_INVALID`, an HTML
 * error page for pages. Every request gets `res.locals.csrfToken` before the check, so error
 * pages print `{{ csrfField() }}` too; the cookie is set (the first time) only on a response that
 * used the token. A multipart form's token is looked for only before its first file part, and
 * no file is read to find it. Add it as app middleware, before the routes that read forms.
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
  const keys = new Map<string | undefined, Buffer>();
  const keyFor = (req: TernRequest) => {
    const secret = options.secret ?? req.signingSecret;
    let key = keys.get(secret);
    if (!key) keys.set(secret, (key = signingKey(secret, 'csrf')));
    return key;
  };

  return async (req, res, next) => {
    const ignored = ignore?.(req) === true;
    // Without a route nothing acts on the request: its 404 or 405 says more than a 403 would.
    const mustCheck = req.route !== undefined && !SAFE_METHODS.has(req.method) && !ignored;
    const session = req[SESSION];
    if (session !== undefined) {
      // Made (and stored in the session) only when a page asks for it: JSON routes create no session.
      Object.defineProperty(res.locals, 'csrfToken', { get: () => session.csrfToken(true), enumerable: true, configurable: true });
      res.locals.csrfFieldName = fieldName;
      const release = mustCheck ? await check(req, session.csrfToken(false), "the CSRF token is missing or is not this session's; load the form again") : undefined;
      return settle(next, release);
    }

    const key = keyFor(req);
    const cookieName = req.protocol === 'https' ? '__Host-tern_csrf' : 'tern_csrf';
    const cookie = req.cookies.get(cookieName);
    const valid = cookie !== undefined && unsign(key, cookie) !== undefined ? cookie : undefined;
    // The cookie goes only with a response that used the token (a page with a form), never with
    // static files, JSON or ignored paths: those may be cached and shared.
    const giveCookie = (to: TernResponse) => {
      if (valid === undefined && !ignored) to.setCookie(cookieName, issued.token, { path: '/', httpOnly: true, sameSite: 'lax', secure: req.protocol === 'https' });
    };
    // Before any check: the 403 page, and every error page, can print the form field too.
    const issued = offerToken(res, valid ?? sign(key, nodeCrypto().randomBytes(24).toString('base64url')), fieldName, () => giveCookie(res));
    let release: (() => void) | undefined;
    if (mustCheck) {
      release = await check(req, valid, valid === undefined ? 'the CSRF cookie is missing or invalid; load the form again' : 'the CSRF token is missing or does not match');
    }
    const response = await settle(next, release);
    // A handler may answer with a response object of its own: the cookie follows the answer.
    if (response !== res && issued.used) giveCookie(response);
    return response;
  };

  /**
   * Refuses a request from another site, or whose token (header, else form field) is not
   * `expected`; answers what releases a multipart body the look left part-read.
   */
  async function check(req: TernRequest, expected: string | undefined, mismatch: string): Promise<(() => void) | undefined> {
    if (comesFromAnotherSite(req)) throw refused(req, 'the request was sent from another site');
    // Nothing to compare with: refused before any of the body is read.
    if (expected === undefined) throw refused(req, mismatch);
    const header = req.headers.get(headerName);
    const body = header === undefined ? await tokenInBody(req, fieldName) : undefined;
    const sent = header ?? body?.token;
    if (sent === undefined || !sameText(sent, expected)) {
      const err = refused(req, mismatch);
      body?.stop?.(err);
      throw err;
    }
    return body?.release;
  }
}

/** Runs the rest of the chain; a handler that never read the rest of a multipart body leaves it to drain, not to be held. */
async function settle(next: () => Promise<TernResponse>, release: (() => void) | undefined): Promise<TernResponse> {
  try {
    return await next();
  } finally {
    release?.();
  }
}

/**
 * Puts the token in `res.locals` (`csrfToken`, read by `{{ csrfField() }}` and handlers) behind a
 * getter, so that reading it, and only that, calls `onFirstUse` (which sets the cookie).
 */
function offerToken(res: TernResponse, token: string, fieldName: string, onFirstUse: () => void): { token: string; used: boolean } {
  const issued = { token, used: false };
  Object.defineProperty(res.locals, 'csrfToken', {
    enumerable: true,
    configurable: true,
    get() {
      if (!issued.used) {
        issued.used = true;
        onFirstUse();
      }
      return token;
    },
  });
  res.locals.csrfFieldName = fieldName;
  return issued;
}

/** Fetch metadata and Origin, which browsers set and pages cannot forge. */
function comesFromAnotherSite(req: TernRequest): boolean {
  if (req.headers.get('sec-fetch-site') === 'cross-site') return true;
  const origin = req.headers.get('origin');
  if (origin === undefined) return false;
  if (origin === 'null' || req.host === undefined) return true;
  try {
    // Scheme, host and port: https://site.test is another origin than http://site.test.
    return new URL(origin).origin !== new URL(`${req.protocol}://${req.host}`).origin;
  } catch {
    return true;
  }
}

/**
 * The token field of a urlencoded form (read once and kept for the handler), or of a multipart
 * form's leading fields: only the fields before the first file part are looked at (a form's
 * hidden field comes first), no file is read, and a file part that comes before any token ends
 * the look. The handler's `req.multipart()` or `req.parts()` continues the same body.
 */
async function tokenInBody(req: TernRequest, fieldName: string): Promise<{ token?: string; stop?: (err: HTTPException) => void; release?: () => void } | undefined> {
  if (!req.hasBody) return undefined;
  const type = mediaTypeOf(req.raw);
  if (type === FORM_TYPE) return { token: textOf((await req.form())[fieldName]) };
  if (type !== MULTIPART_TYPE) return undefined;
  const leading = await req.leadingMultipartFields();
  const token = textOf(leading.fields[fieldName]);
  if (token === undefined && leading.fileFollows) {
    // Refused before the upload is read: the answer closes the connection instead of draining it.
    const err = refused(req, `a file part came before the form's ${fieldName} field; put the token first, or send it in a header`);
    leading.stop(err);
    throw err;
  }
  return { token, stop: leading.stop, release: leading.release };
}

function textOf(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && nodeCrypto().timingSafeEqual(left, right);
}

/** The 403; while the body is still arriving it closes the connection rather than read the rest. */
function refused(req: TernRequest, why: string) {
  const headers = req.hasBody && !req.raw.complete ? { connection: 'close' } : undefined;
  return requestError('TERN_CSRF_INVALID', `Forbidden: ${why}.`, headers && { headers });
}
