/**
 * RealWorld's error format, `{"errors":{"body":["…"]}}`, for every error answer: the API's own
 * (404 for an unknown slug, 403 for someone else's article), Tern's (422 for a body that fails
 * its model, 401 from `enforceSecurity`, 404/405 for unknown paths, 400 for bad JSON) and an
 * unexpected failure (a 500 that says only "Internal Server Error"; Tern still reports the error).
 */
import { HTTPException, type TernApp } from '@tern/core';

/** What an unexpected failure answers: its message could leak paths, SQL or secrets. */
export const INTERNAL_ERROR = 'Internal Server Error';

/** The messages of an error answer: the detail, then each failed field as `path message`. */
function messagesOf(exc: HTTPException): string[] {
  const fields = (exc.errors ?? []).map((error) => error.message);
  return fields.length > 0 ? fields : [exc.detail ?? exc.message];
}

/**
 * Installs the handlers; headers Tern set on the error (`WWW-Authenticate`, `Allow`) are kept.
 *
 * @example
 * const app = new TernApp({ prefix: '/api' });
 * realWorldErrors(app); // a thrown TypeError → 500 {"errors":{"body":["Internal Server Error"]}}
 */
export function realWorldErrors(app: TernApp): void {
  app.addExceptionHandler(HTTPException, async (req, res, exc: HTTPException) => {
    for (const [name, value] of Object.entries(exc.headers ?? {})) res.setHeader(name, value);
    return res.json({ errors: { body: messagesOf(exc) } }, exc.status);
  });
  // Every other error: Tern reports it (the app's logger) before this handler answers.
  app.addExceptionHandler(500, async (req, res) => res.json({ errors: { body: [INTERNAL_ERROR] } }, 500));
}
