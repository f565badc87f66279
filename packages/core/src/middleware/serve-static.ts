import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import type { FileOptions } from '../http/file';
import { PAGE_HANDLER } from '../http/templates';
import { Router } from '../routing/router';
import type { Handler } from '../routing/types';

/**
 * Static files are a site's pages too (`index.html`, a link typed by hand): a browser navigating
 * to a missing one gets the app's 404 error page (`errorPages`), not a problem body. A stylesheet
 * or script the page asks for does not prefer HTML, so it keeps the problem.
 */
function asPage<P>(handler: Handler<P>): Handler<P> {
  return Object.assign(handler, { [PAGE_HANDLER]: true });
}

/**
 * Options of {@link serveStatic}.
 *
 * @example
 * const options: ServeStaticOptions = { prefix: '/assets', maxAge: '7d', immutable: true };
 */
export interface ServeStaticOptions extends Omit<FileOptions, 'root' | 'download'> {
  /** The URL prefix the folder is served under; default `/`. */
  prefix?: string;
  /** The file sent for a path ending in `/` (the prefix itself included); `false` for none. Default `'index.html'`. */
  index?: string | false;
}

/**
 * Serves the files under `root` at `prefix`, through `res.file()`: Range, ETag/Last-Modified and
 * 304, content types, HEAD; `..`, dotfiles (denied by default) and symlinks leading out of `root`
 * are refused, a missing file is a 404 problem like any other (the app's 404 error page for a
 * browser navigating to it, with `errorPages`). Returns a `Router` (GET, hence
 * HEAD, on `prefix` and everything under it, left out of the OpenAPI document) to mount with
 * `app.mountRouter()`; routes declared elsewhere under the same prefix still win where they match.
 * A folder without a trailing slash is a 404 (no redirect).
 *
 * @example
 * app.mountRouter(serveStatic(path.join(__dirname, 'public'), { prefix: '/static', maxAge: '1h' }));
 * // GET /static/css/site.css → public/css/site.css; GET /static/ → public/index.html
 */
export function serveStatic(root: string, options: ServeStaticOptions = {}): Router {
  if (typeof root !== 'string' || root === '') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'serveStatic() expects the folder to serve.');
  const { prefix = '/', index = 'index.html', ...fileOptions } = options;
  if (index !== false && (typeof index !== 'string' || index === '' || index.includes('/'))) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'serveStatic(): index must be a file name or false.');
  }
  const settings: FileOptions = { ...fileOptions, root };
  const router = new Router({ prefix: prefix === '/' ? '' : prefix, excludeFromSchema: true });
  const serve = (path: string) => {
    // A folder's own path (the prefix, or one ending in '/') means its index file.
    if (path !== '' && !path.endsWith('/')) return path;
    if (index === false) throw requestError('TERN_FILE_NOT_FOUND', 'No index file is served here.');
    return path + index;
  };
  router.get('/', asPage(async (req, res) => res.file(serve(''), settings)));
  router.get('/{path:path}', asPage(async (req, res, { path }) => res.file(serve(path), settings)));
  return router;
}
