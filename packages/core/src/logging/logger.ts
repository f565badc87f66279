/**
 * The logger Tern writes structured lines to: pino, or anything with pino's shape (a `child`
 * and one method per level taking `(object, message)`). Tern never imports pino for this: an app
 * hands its own logger, or asks for the default one (`default-logger.ts`).
 */

/** pino's level names, lowest first. */
export type LogLevel = 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal';

/** One level's method: `log.info({ reqId }, 'message')` or `log.info('message')`. */
export type LogMethod = (objOrMessage: unknown, message?: string, ...args: unknown[]) => void;

/**
 * A pino-compatible logger: what `new TernApp({ logger })` accepts besides the error-only
 * console shape, and what `req.log` is.
 *
 * @example
 * import pino from 'pino';
 * const logger: TernLogger = pino({ level: 'info' });
 */
export interface TernLogger {
  trace: LogMethod;
  debug: LogMethod;
  info: LogMethod;
  warn: LogMethod;
  error: LogMethod;
  fatal: LogMethod;
  /** A logger whose lines all carry `bindings`; pino's `options` (`level`, `redact`, `serializers`) may be honoured. */
  child(bindings: Record<string, unknown>, options?: Record<string, unknown>): TernLogger;
}

/** What Tern writes to a structured logger, and what it keeps out of it. */
export interface LogOptions {
  /** The level of the line written for each completed request, or `false` for none. Default `'info'`. */
  requests?: LogLevel | false;
  /**
   * The lowest level Tern's own lines and `req.log` write (a child logger's `level`); the logger's
   * own level still applies. Default: the logger's level.
   */
  level?: LogLevel | 'silent';
  /**
   * Further paths (pino redaction syntax: `body.password`, `*.token`) censored in every line Tern
   * and `req.log` write, besides the `Authorization`, `Cookie` and `Set-Cookie` headers.
   */
  redact?: string[];
}

const LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

/**
 * Headers that carry credentials, wherever a line puts a headers object (`{ headers }`,
 * `{ req: { headers } }`, an HTTP client's error with `config.headers`). pino matches paths
 * case-sensitively: Node lower-cases incoming names, clients often send `Authorization`.
 */
export const DEFAULT_REDACT: readonly string[] = [
  'headers.authorization',
  'headers.Authorization',
  'headers.cookie',
  'headers.Cookie',
  'headers["set-cookie"]',
  'headers["Set-Cookie"]',
  '*.headers.authorization',
  '*.headers.Authorization',
  '*.headers.cookie',
  '*.headers.Cookie',
  '*.headers["set-cookie"]',
  '*.headers["Set-Cookie"]',
  'err.config.headers.authorization',
  'err.config.headers.Authorization',
  'err.config.headers.cookie',
  'err.config.headers.Cookie',
];

/** True for a pino-shaped logger (as opposed to the error-only console shape). */
export function isStructuredLogger(value: unknown): value is TernLogger {
  if (value === null || typeof value !== 'object') return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.child === 'function' && LEVELS.every((level) => typeof candidate[level] === 'function');
}

/** True for one of pino's level names. */
export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && LEVELS.includes(value);
}

const ignore: LogMethod = () => undefined;

/**
 * `req.log` of an app without a structured logger: every line is dropped, so handler code that
 * logs works whether or not the app was given a logger.
 */
export const silentLogger: TernLogger = {
  trace: ignore,
  debug: ignore,
  info: ignore,
  warn: ignore,
  error: ignore,
  fatal: ignore,
  child: () => silentLogger,
};
