import { readdirSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { join, sep } from 'node:path';
import { hasUrlConvertor, InvalidRouteError, TernError, TernTypeError } from '@tern/core';

/** One route file found by the scan. */
export interface RouteFile {
  /** Absolute path of the file to load. */
  file: string;
  /** The URL path the directory stands for, e.g. `/users/{id:int}`. */
  path: string;
  /** The `_middleware` files of its directory and every directory above it, outermost first. */
  middlewareFiles: string[];
}

export interface ScanOptions {
  /** Normalised URL paths (`/admin`) whose directories are skipped with everything below. */
  exemptPaths: readonly string[];
  /** Pick `route.ts` over `route.js` when both exist (the running code can load TypeScript). */
  preferTypeScript: boolean;
}

const ROUTE_FILE_NAMES = ['route.ts', 'route.js'];
/** A directory's own middleware, run for every route file in it and below it. */
const MIDDLEWARE_FILE_NAMES = ['_middleware.ts', '_middleware.js'];

/** A directory name that declares a parameter; the grammar core's path compiler accepts. */
const PARAM_DIR = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::([A-Za-z_][A-Za-z0-9_]*))?\}$/;

interface Segment {
  name: string;
  param?: { name: string; converter: string };
}

/**
 * Walks `root` once, in sorted order, and returns its route files with their URL paths. Skips
 * dot-directories, `node_modules`, exempt paths and anything whose real location is outside
 * `root` (symlinks); refuses malformed or unknown-converter directory names, naming them.
 */
export function scanRoutes(root: string, options: ScanOptions): RouteFile[] {
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
    if (!statSync(realRoot).isDirectory()) throw new Error('not a directory');
  } catch (err) {
    throw new TernError(
      'TERN_ROUTES_ROOT_NOT_FOUND',
      `File router: root '${root}' is not a readable directory (${(err as Error).message}). ` +
        'Pass an absolute path, e.g. path.join(__dirname, "routes").',
      { cause: err },
    );
  }
  const found: RouteFile[] = [];
  walk(root, [], new Set([realRoot]), realRoot, options, found, []);
  return found;
}

function walk(
  dir: string,
  segments: Segment[],
  ancestors: Set<string>,
  realRoot: string,
  options: ScanOptions,
  found: RouteFile[],
  inheritedMiddleware: readonly string[],
): void {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const relDir = segments.map((s) => s.name).join('/');

  const fileNames = new Set<string>();
  const middlewareNames = new Set<string>();
  const subdirs: Array<{ name: string; path: string; real: string }> = [];
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const kind = classify(dir, entry, realRoot);
    if (!kind) continue;
    if (kind.type === 'file') {
      if (ROUTE_FILE_NAMES.includes(entry.name)) fileNames.add(entry.name);
      else if (MIDDLEWARE_FILE_NAMES.includes(entry.name)) middlewareNames.add(entry.name);
    } else if (!ancestors.has(kind.real)) {
      // A link back to a directory being walked would loop forever; aliases elsewhere are fine.
      subdirs.push({ name: entry.name, path: join(dir, entry.name), real: kind.real });
    }
  }

  const ownMiddleware = pickSourceFile(middlewareNames, '_middleware', options.preferTypeScript);
  const middlewareFiles = ownMiddleware ? [...inheritedMiddleware, join(dir, ownMiddleware)] : [...inheritedMiddleware];
  const chosen = pickRouteFile(fileNames, options.preferTypeScript);
  if (chosen) {
    const path = urlPath(segments);
    checkPathParamIsLast(segments, `directory '${relDir}' under ${realRoot}`);
    found.push({ file: join(dir, chosen), path, middlewareFiles });
  }

  for (const sub of subdirs) {
    const childRel = relDir ? `${relDir}/${sub.name}` : sub.name;
    // Exemptions are checked on the raw name first: nothing under an exempt directory is read.
    const childPath = urlPath([...segments, { name: sub.name }]);
    if (isExempt(childPath, options.exemptPaths)) continue;
    const where = `directory '${childRel}' under ${realRoot}`;
    const segment = parseSegment(sub.name, where);
    checkUniqueParam(segments, segment, where);
    walk(sub.path, [...segments, segment], new Set(ancestors).add(sub.real), realRoot, options, found, middlewareFiles);
  }
}

/** What a directory entry really is once symlinks are followed; undefined to skip it. */
function classify(dir: string, entry: Dirent, realRoot: string): { type: 'file' | 'dir'; real: string } | undefined {
  const full = join(dir, entry.name);
  if (!entry.isSymbolicLink()) {
    if (entry.isDirectory()) return { type: 'dir', real: realpathSync(full) };
    if (entry.isFile()) return { type: 'file', real: full };
    return undefined;
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return undefined; // a dangling link
  }
  if (real !== realRoot && !real.startsWith(realRoot + sep)) return undefined; // leads outside root
  const stats = statSync(real);
  if (stats.isDirectory()) return { type: 'dir', real };
  if (stats.isFile()) return { type: 'file', real };
  return undefined;
}

/**
 * The file to load from one directory: never both. `route.ts` when the running code can load
 * TypeScript (ts-node, ts-jest), else `route.js` (compiled output, which sits beside `route.d.ts`).
 * A lone file is taken as it is.
 */
export function pickRouteFile(names: ReadonlySet<string>, preferTypeScript: boolean): string | undefined {
  return pickSourceFile(names, 'route', preferTypeScript);
}

/** `<base>.ts` or `<base>.js` among `names`, by pickRouteFile's rule (a directory's `_middleware` too). */
function pickSourceFile(names: ReadonlySet<string>, base: string, preferTypeScript: boolean): string | undefined {
  const ts = names.has(`${base}.ts`) ? `${base}.ts` : undefined;
  const js = names.has(`${base}.js`) ? `${base}.js` : undefined;
  if (ts && js) return preferTypeScript ? ts : js;
  return ts ?? js;
}

/** Reads one directory name (or path segment); `where` says where it comes from, for errors. */
function parseSegment(name: string, where: string): Segment {
  if (!name.includes('{') && !name.includes('}')) return { name };
  const m = PARAM_DIR.exec(name);
  if (!m) {
    throw new InvalidRouteError(
      `File router: ${where}: '${name}' is malformed; a dynamic segment is named {name} or {name:converter}, ` +
        'and braces may not appear elsewhere.',
    );
  }
  const [, param, converter = 'str'] = m;
  if (!hasUrlConvertor(converter)) {
    throw new InvalidRouteError(
      `File router: ${where}: unknown converter '${converter}' in '${name}'; register it with registerUrlConvertor() before app.ready().`,
      'TERN_UNKNOWN_CONVERTER',
    );
  }
  return { name, param: { name: param, converter } };
}

function checkUniqueParam(segments: Segment[], segment: Segment, where: string): void {
  if (segment.param && segments.some((s) => s.param?.name === segment.param?.name)) {
    throw new InvalidRouteError(
      `File router: ${where}: the parameter '${segment.param.name}' appears twice; give each dynamic segment of one path its own name.`,
    );
  }
}

/**
 * Checks a `markAsRoute` path override the same way directory names are checked, so a mistake
 * is reported with the file that made it.
 */
export function checkRoutePath(path: string, where: string): void {
  const segments: Segment[] = [];
  for (const name of path.split('/').slice(1)) {
    const segment = parseSegment(name, where);
    checkUniqueParam(segments, segment, where);
    segments.push(segment);
  }
  checkPathParamIsLast(segments, where);
}

/** A `{p:path}` segment matches the rest of the URL, so nothing may follow it. */
function checkPathParamIsLast(segments: Segment[], where: string): void {
  const index = segments.findIndex((s) => s.param?.converter === 'path');
  if (index !== -1 && index !== segments.length - 1) {
    throw new InvalidRouteError(
      `File router: ${where}: '${segments[index].name}' takes the rest of the URL, so nothing may follow it ` +
        '(a {name:path} directory can only hold a route file itself).',
    );
  }
}

function urlPath(segments: Segment[]): string {
  return `/${segments.map((s) => s.name).join('/')}`;
}

/** `/admin` exempts `/admin` and everything below it, not `/administrators`. */
function isExempt(path: string, exemptPaths: readonly string[]): boolean {
  return exemptPaths.some((exempt) => path === exempt || path.startsWith(`${exempt}/`));
}

/** Checks and normalises `exemptPaths` entries: leading slash, no trailing slash. */
export function normaliseExemptPaths(paths: unknown): string[] {
  if (paths === undefined) return [];
  if (!Array.isArray(paths)) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'FileRouter: exemptPaths must be a list of URL paths.');
  return paths.map((entry) => {
    if (typeof entry !== 'string' || !entry.startsWith('/')) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `FileRouter: exemptPaths entry ${JSON.stringify(entry)} must be a URL path starting with '/'.`);
    }
    const trimmed = entry.replace(/\/+$/, '');
    if (!trimmed) throw new TernTypeError('TERN_INVALID_ARGUMENT', "FileRouter: exemptPaths cannot hold '/': that would remove every route.");
    return trimmed;
  });
}
