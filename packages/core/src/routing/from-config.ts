import { isAbsolute, resolve } from 'node:path';
import { RouteImportError } from '../errors';
import { Routes, withOptions } from './routes';
import type { Handler, RouteOptions } from './types';

/** One route of a configuration file: where its handler lives and the usual route options. */
export interface RouteConfigEntry extends RouteOptions {
  path: string;
  /** Module path, relative to `baseDir` (or a package name). */
  module: string;
  /** Export holding the handler (default `default`). */
  export?: string;
}

/**
 * Builds `Routes` from configuration (a JSON file, say): each entry names a module and an export.
 * Loading happens now, at startup: a module that cannot be loaded or an export that is not a
 * function throws a `RouteImportError` (code `TERN_IMPORT_FAILED`) naming it.
 *
 * @example
 * const routes = routesFromConfig(
 *   [{ path: '/health', module: './handlers/health', export: 'health', methods: ['GET'] }],
 *   { baseDir: __dirname },
 * );
 * for (const route of routes) app.addRoute(route);
 */
export function routesFromConfig(entries: RouteConfigEntry[], options: { baseDir: string }): Routes[] {
  return entries.map((entry, index) => {
    const { module: modulePath, export: exportName = 'default', ...routeOptions } = entry;
    if (!modulePath || typeof entry.path !== 'string') {
      throw new RouteImportError(`Route config entry ${index} needs 'path' and 'module'.`);
    }
    const target = modulePath.startsWith('.') || isAbsolute(modulePath) ? resolve(options.baseDir, modulePath) : modulePath;
    let loaded: Record<string, unknown>;
    try {
      // Configuration names modules at run time; require is the CommonJS loader the packages target.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      loaded = require(target);
    } catch (err) {
      throw new RouteImportError(`Cannot load module '${modulePath}' for route ${entry.path}: ${(err as Error).message}`, err);
    }
    const handler = loaded?.[exportName];
    if (typeof handler !== 'function') {
      throw new RouteImportError(`Module '${modulePath}' has no function export '${exportName}' for route ${entry.path}.`);
    }
    return new Routes(withOptions({ path: entry.path, handler: handler as Handler }, routeOptions));
  });
}
