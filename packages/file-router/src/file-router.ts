import { resolve } from 'node:path';
import { RouteImportError, Routes, TernApp, TernError, TernTypeError, type Declaration, type Middleware, type RouteProvider } from '@tern/core';
import { routeOptionsOf, toRouteOptions, type FileRouteHandler, type MarkAsRouteOptions } from './mark-as-route';
import { assertTemplateKnown, renderedTemplateOf } from './html';
import { checkRoutePath, normaliseExemptPaths, scanRoutes, type RouteFile } from './scan';

/** How a `FileRouter` finds its route files: the folder, the paths it skips, and schema visibility. */
export interface FileRouterOptions {
  /** Directory holding the route files; relative paths resolve against `process.cwd()`. Default `./routes`. */
  root?: string;
  /** URL paths whose directories (and everything below) are not loaded, e.g. `['/admin']`. */
  exemptPaths?: string[];
  /** Hides every file route from the OpenAPI document. */
  excludeFromSchema?: boolean;
}

/** Export names that serve the method of the same name, in the order their routes are declared. */
const METHOD_EXPORTS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'] as const;

/**
 * Turns a directory tree of `route.ts` / `route.js` files into routes. The tree is scanned once,
 * when the app compiles (`app.ready()`, or `getAllRoutes()` before it); every file route is an
 * ordinary `Routes` from then on (405 with Allow, 422 from converters, conflicts, OpenAPI, urlFor).
 *
 * @example
 * const app = new TernApp();
 * new FileRouter(app, { root: path.join(__dirname, 'routes'), exemptPaths: ['/internal'] });
 * // routes/users/{id:int}/route.ts:
 * //   export async function get(req: Request) { return { id: req.pathParams.id }; }
 * await app.listen({ port: 3000 }); // GET /users/7 → { "id": 7 }
 */
export class FileRouter implements RouteProvider {
  /** The absolute root directory. */
  readonly root: string;
  readonly exemptPaths: readonly string[];
  readonly excludeFromSchema: boolean;

  private scanned?: { files: RouteFile[]; routes: Routes[] };

  constructor(app: TernApp, options: FileRouterOptions = {}) {
    if (!(app instanceof TernApp)) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'new FileRouter(app, options): app must be a TernApp.');
    if (options.root !== undefined && typeof options.root !== 'string') throw new TernTypeError('TERN_INVALID_ARGUMENT', 'FileRouter: root must be a directory path.');
    this.root = resolve(options.root ?? './routes');
    this.exemptPaths = normaliseExemptPaths(options.exemptPaths);
    this.excludeFromSchema = options.excludeFromSchema === true;
    app.addRouteProvider(this);
  }

  /** Called by the app when it compiles; scans and loads the tree the first time only. */
  provide(): Declaration[] {
    return this.load().routes;
  }

  /** The route files loaded, in declaration order (scans the tree if that has not happened yet). */
  get files(): Array<{ file: string; path: string }> {
    return this.load().files.map(({ file, path }) => ({ file, path }));
  }

  private load(): { files: RouteFile[]; routes: Routes[] } {
    if (this.scanned) return this.scanned;
    const files = scanRoutes(this.root, { exemptPaths: this.exemptPaths, preferTypeScript: canLoadTypeScript() });
    const folders = new Map<string, Middleware[]>();
    const routes = files.flatMap((routeFile) => this.routesOf(routeFile, routeFile.middlewareFiles.flatMap((file) => folderMiddleware(file, folders))));
    return (this.scanned = { files, routes });
  }

  private routesOf({ file, path }: RouteFile, folder: Middleware[]): Routes[] {
    const moduleExports = loadRouteModule(file);
    const routes: Routes[] = [];
    for (const name of METHOD_EXPORTS) {
      if (!Object.prototype.hasOwnProperty.call(moduleExports, name)) continue;
      const handler = moduleExports[name];
      if (typeof handler !== 'function') {
        throw invalidFile(file, `its export '${name}' is ${describe(handler)}; an export named after a method must be a handler function`);
      }
      const method = name.toUpperCase();
      const options = routeOptionsOf(handler) ?? {};
      // Methods that are no list at all are the route options table's to refuse, at ready().
      const methods = options.methods ?? [method];
      if (Array.isArray(methods) && !(methods.length === 1 && String(methods[0]).toUpperCase() === method)) {
        throw invalidFile(
          file,
          `its export '${name}' is marked with methods [${methods.join(', ')}]; an export named after a method serves ` +
            'only that method (drop `methods`, or give the export another name)',
        );
      }
      routes.push(this.build(file, path, methods, handler as FileRouteHandler, options, folder));
    }
    const others = Object.keys(moduleExports)
      .filter((name) => !(METHOD_EXPORTS as readonly string[]).includes(name) && routeOptionsOf(moduleExports[name]))
      .sort();
    for (const name of others) {
      const handler = moduleExports[name] as FileRouteHandler;
      const options = routeOptionsOf(handler) as MarkAsRouteOptions;
      routes.push(this.build(file, path, options.methods ?? ['GET'], handler, options, folder));
    }
    if (routes.length === 0) {
      throw invalidFile(
        file,
        'it exports no handler; export get, post, put, patch, delete (`export { remove as delete }`), head or options, or an export made with markAsRoute()',
      );
    }
    return routes;
  }

  private build(file: string, derivedPath: string, methods: string[], handler: FileRouteHandler, options: Readonly<MarkAsRouteOptions>, folder: Middleware[]): Routes {
    const path = options.path ?? derivedPath;
    if (options.path !== undefined) checkRoutePath(path, `markAsRoute path '${path}' in ${file}`);
    for (const template of [renderedTemplateOf(handler), options.formTemplate]) {
      if (typeof template === 'string') assertTemplateKnown(template, `Route file '${file}'`);
    }
    const routeOptions = toRouteOptions(options);
    if (this.excludeFromSchema) routeOptions.excludeFromSchema = true;
    // The folders' middleware runs first, outermost folder first, then the route's own: a route
    // file added to a guarded folder is guarded, whatever it declares.
    if (folder.length > 0) routeOptions.middleware = [...folder, ...(Array.isArray(routeOptions.middleware) ? routeOptions.middleware : [])];
    return new Routes({ ...routeOptions, path, methods, handler, declaredIn: file });
  }
}

/**
 * True when this process can load `.ts` route files: this module itself runs as TypeScript
 * (ts-jest, ts-node running the sources), or a TypeScript loader registered the extension.
 */
function canLoadTypeScript(): boolean {
  return __filename.endsWith('.ts') || require.extensions?.['.ts'] !== undefined;
}

/**
 * The middleware a `_middleware.ts` (or `.js`) file exports as `middleware`: one function or a
 * list of them. Loaded once per file, however many route files sit below it.
 */
function folderMiddleware(file: string, loaded: Map<string, Middleware[]>): Middleware[] {
  const known = loaded.get(file);
  if (known) return known;
  const exported = loadRouteModule(file).middleware;
  const list = Array.isArray(exported) ? exported : [exported];
  if (exported === undefined || list.length === 0 || !list.every((entry) => typeof entry === 'function')) {
    throw new TernError(
      'TERN_INVALID_ROUTE_FILE',
      `File router: middleware file '${file}' cannot be used: it must export \`middleware\`, a middleware function or a list of them (got ${describe(exported)}).`,
    );
  }
  loaded.set(file, list as Middleware[]);
  return list as Middleware[];
}

function loadRouteModule(file: string): Record<string, unknown> {
  if (file.endsWith('.ts') && !canLoadTypeScript()) {
    throw new RouteImportError(
      `File router: cannot load route file '${file}': this process does not run TypeScript. ` +
        'Compile the routes (tsc writes route.js beside route.d.ts) and point root at the output, or run under ts-node.',
    );
  }
  let loaded: unknown;
  try {
    // Route files are found at run time; require is the CommonJS loader the packages target.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    loaded = require(file);
  } catch (err) {
    throw new RouteImportError(`File router: route file '${file}' failed to load: ${(err as Error)?.message ?? String(err)}`, err);
  }
  if (typeof loaded !== 'object' || loaded === null) {
    throw invalidFile(file, `it exports ${describe(loaded)} instead of named handlers`);
  }
  return loaded as Record<string, unknown>;
}

function invalidFile(file: string, why: string): TernError {
  return new TernError('TERN_INVALID_ROUTE_FILE', `File router: route file '${file}' cannot be used: ${why}.`);
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
