import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import type { FileOptions } from '../http/file';
import { PAGE_HANDLER } from '../http/templates';
import { AssetManifest, HASH_SEGMENT, registerManifest } from './asset-manifest';
import { Router } from '../routing/router';
import type { Handler } from '../routing/types';

/** What browsers may keep a fingerprinted file for: its URL changes with its contents. */
const ONE_YEAR = '365d';

/** `<hash>/css/site.css` for a file the manifest holds: the hash asked and the file's current one. */
function fingerprinted(manifest: AssetManifest, path: string): { file: string; asked: string; current: string } | undefined {
  const slash = path.indexOf('/');
  if (slash === -1) return undefined;
  const asked = path.slice(0, slash);
  if (!HASH_SEGMENT.test(asked)) return undefined;
  const file = path.slice(slash + 1);
  const current = manifest.hashOf(file);
  return current === undefined ? undefined : { file, asked, current };
}

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
  /**
   * Serve every file also at `<prefix>/<hash>/<path>` (the hash of its contents, computed at
   * startup), cached for a year as `immutable`; `assetUrl(path)` and the `{{ asset(path) }}`
   * template global give that URL. An old hash is redirected to the current one.
   */
  fingerprint?: boolean;
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
 * With `fingerprint: true` every file is also served at `<prefix>/<hash>/<path>` for a year,
 * `immutable`; `assetUrl()` / `{{ asset() }}` give those URLs.
 *
 * @example
 * app.mountRouter(serveStatic(path.join(__dirname, 'public'), { prefix: '/static', maxAge: '1h' }));
 * // GET /static/css/site.css → public/css/site.css; GET /static/ → public/index.html
 * app.mountRouter(serveStatic(path.join(__dirname, 'assets'), { prefix: '/assets', fingerprint: true }));
 * // {{ asset('css/site.css') }} → /assets/3f2a9c0d1b7e/css/site.css (Cache-Control: public, max-age=31536000, immutable)
 */
export function serveStatic(root: string, options: ServeStaticOptions = {}): Router {
  if (typeof root !== 'string' || root === '') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'serveStatic() expects the folder to serve.');
  const { prefix = '/', index = 'index.html', fingerprint = false, ...fileOptions } = options;
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
  const manifest = fingerprint ? new AssetManifest(root, prefix === '/' ? '' : prefix.replace(/\/+$/, ''), fileOptions.dotfiles === 'allow') : undefined;
  if (manifest) registerManifest(manifest);
  const immutable: FileOptions = { ...settings, maxAge: ONE_YEAR, immutable: true };
  router.get('/', asPage(async (req, res) => res.file(serve(''), settings)));
  router.get(
    '/{path:path}',
    asPage(async (req, res, { path }) => {
      const hashed = manifest && fingerprinted(manifest, path);
      if (hashed === undefined) return res.file(serve(path), settings);
      // An old hash (a page from before a deploy): the file as it is now, under its own URL.
      if (hashed.current !== hashed.asked) return res.redirect(`${(manifest as AssetManifest).prefix}/${hashed.current}/${hashed.file}`, 307);
      return res.file(hashed.file, immutable);
    }),
  );
  return router;
}
