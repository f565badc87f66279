import type { RangeErrorCode, StartupOrServingCode, TypeErrorCode } from './codes';

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
    readonly code: StartupOrServingCode,
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
  constructor(message: string, code: 'TERN_INVALID_ROUTE' | 'TERN_UNKNOWN_CONVERTER' = 'TERN_INVALID_ROUTE') {
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

/**
 * A public function or constructor got an argument of the wrong type (a handler that is not a
 * function, an option of the wrong shape). It is a real `TypeError`, so `instanceof TypeError`
 * and `err.name === 'TypeError'` keep working, with Tern's stable `code` added, as Node does
 * for its own `ERR_*` errors.
 *
 * @example
 * try { app.get('/x', undefined as never); } catch (err) {
 *   err instanceof TypeError;                  // true
 *   (err as TernTypeError).code;               // 'TERN_INVALID_HANDLER'
 * }
 */
export class TernTypeError extends TypeError {
  constructor(
    readonly code: TypeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A public function got a number outside what it accepts (a status code, a limit). A real
 * `RangeError` with Tern's stable `code` added.
 *
 * @example
 * try { res.status(42); } catch (err) {
 *   err instanceof RangeError;                 // true
 *   (err as TernRangeError).code;              // 'TERN_INVALID_STATUS'
 * }
 */
export class TernRangeError extends RangeError {
  constructor(
    readonly code: RangeErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
