/**
 * RealWorld's error format, `{"errors":{"body":["…"]}}`, for every error answer: the API's own
 * (404 for an unknown slug, 403 for someone else's article) and Tern's (422 for a body that fails
 * its model, 401 from `enforceSecurity`, 404/405 for unknown paths, 400 for bad JSON).
 */
import { HTTPException, type TernApp } from '@tern/core';

/** The messages of an error answer: the detail, then each failed field as `path message`. */
function messagesOf(exc: HTTPException): string[] {
  const fields = (exc.errors ?? []).map((error) => error.message);
  return fields.length > 0 ? fields : [exc.detail ?? exc.message];
}

/** Installs the handler; headers Tern set on the error (`WWW-Authenticate`, `Allow`) are kept. */
export function realWorldErrors(app: TernApp): void {
  app.addExceptionHandler(HTTPException, async (req, res, exc: HTTPException) => {
    for (const [name, value] of Object.entries(exc.headers ?? {})) res.setHeader(name, value);
    return res.json({ errors: { body: messagesOf(exc) } }, exc.status);
  });
}
