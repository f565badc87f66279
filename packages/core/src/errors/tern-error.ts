/**
 * Every error Tern throws at startup (and a few it throws at request time) is a `TernError` with a
 * stable `code`, so users can branch on it without parsing messages. docs/errors.md lists them all.
 *
 * @example
 * try { await app.ready(); } catch (err) {
 *   if (err instanceof TernError && err.code === 'TERN_ROUTE_CONFLICT') { ... }
 * }
 */
export class TernError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Two routes share one full name, or one method and path shape (after prefixes are composed). */
export class RouteConflictError extends TernError {
  constructor(message: string) {
    super('TERN_ROUTE_CONFLICT', message);
  }
}

/** A path pattern Tern cannot compile: bad braces, unknown converter, a `path` parameter not last. */
export class InvalidRouteError extends TernError {
  constructor(message: string, code = 'TERN_INVALID_ROUTE') {
    super(code, message);
  }
}

/** A module or export named by configuration-driven registration could not be loaded. */
export class RouteImportError extends TernError {
  constructor(message: string, cause?: unknown) {
    super('TERN_IMPORT_FAILED', message, { cause });
  }
}

/** `urlFor` was asked for an unknown route name or given a parameter it cannot use. */
export class UrlGenerationError extends TernError {
  constructor(message: string) {
    super('TERN_URL_GENERATION', message);
  }
}

/** A declaration arrived after `ready()` compiled the app; it would never be served. */
export class AppAlreadyReadyError extends TernError {
  constructor(what: string) {
    super('TERN_APP_ALREADY_READY', `Cannot ${what} after app.ready(): routes are compiled once at startup.`);
  }
}
