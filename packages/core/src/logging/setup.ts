/**
 * The app's logging options, checked and resolved once in `new TernApp()`: which logger failures
 * go to, whether each request gets a line and an id, and which header carries the id.
 */
import { TernTypeError } from '../errors';
import { defaultLogger } from './default-logger';
import { DEFAULT_REDACT, isLogLevel, isStructuredLogger, type LogLevel, type LogOptions, type TernLogger } from './logger';

/** The error-only console shape: `(message, err)`. */
export type ConsoleLogger = Pick<Console, 'error'> & Partial<Pick<Console, 'warn'>>;

export interface LoggingSetup {
  /** Failures and notes: a console-shaped logger, a structured one (with `reqId`), or `false`. */
  failures: ConsoleLogger | TernLogger | false;
  /** The structured logger `req.log` is a child of; undefined without one. */
  structured?: TernLogger;
  /** The logger and level of the per-request line; undefined when there is none. */
  requestLine?: { logger: TernLogger; level: LogLevel };
  /**
   * Request ids handed out by the pipeline; undefined when ids stay lazy. `read` is the header an
   * incoming id is adopted from (only when the app named one), `echo` the one it is sent back on.
   */
  ids?: RequestIds;
}

/** Where the pipeline's request ids come from and go. */
export interface RequestIds {
  /** The header an incoming (sane) id is adopted from: set only when the app names `requestIdHeader`. */
  read?: string;
  /** The header the id is echoed on, or false (`requestIdHeader: false`). */
  echo: string | false;
}

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * @param logger `new TernApp({ logger })`: a pino-compatible logger, `true` for a default pino,
 *   a console-shaped `{ error }`, `false`, or undefined (console, errors only).
 */
export function setUpLogging(
  logger: ConsoleLogger | TernLogger | boolean | undefined,
  requestIdHeader: string | false | undefined,
  options: LogOptions = {},
): LoggingSetup {
  const { requests = 'info', level, redact = [] } = options;
  if (requests !== false && !isLogLevel(requests)) throw invalid(`log.requests must be a level name or false, not ${String(requests)}.`);
  if (level !== undefined && level !== 'silent' && !isLogLevel(level)) throw invalid(`log.level must be a level name or 'silent', not ${String(level)}.`);
  if (!Array.isArray(redact) || !redact.every((path) => typeof path === 'string')) throw invalid('log.redact must be a list of paths (strings).');
  if (requestIdHeader !== undefined && requestIdHeader !== false && (typeof requestIdHeader !== 'string' || !HEADER_NAME.test(requestIdHeader))) {
    throw invalid(`requestIdHeader must be a header name or false, not ${JSON.stringify(requestIdHeader)}.`);
  }
  // Adopting a client's id only when the app names the header (as Fastify v5 does): otherwise two
  // clients could log under one id. A generated id is still echoed, so a client can quote it.
  const named = typeof requestIdHeader === 'string' ? requestIdHeader.toLowerCase() : undefined;
  const ids: RequestIds = named === undefined ? { echo: requestIdHeader === false ? false : 'x-request-id' } : { read: named, echo: named };
  const paths = [...DEFAULT_REDACT, ...redact];

  let base: TernLogger | undefined;
  if (logger === true) base = defaultLogger(paths, level);
  else if (isStructuredLogger(logger)) base = logger;
  if (base === undefined) {
    const failures = logger === undefined || logger === true ? console : (logger as ConsoleLogger | false);
    return { failures, ids: requestIdHeader === undefined ? undefined : ids };
  }
  // What Tern writes and `req.log` go through one child: the redaction (a child's `redact`
  // replaces its parent's, which is why the app's own paths are listed in `log.redact`) and level.
  const childOptions: Record<string, unknown> = { redact: { paths, censor: '[Redacted]' } };
  if (level !== undefined) childOptions.level = level;
  const structured = logger === true ? base : base.child({}, childOptions);
  // The per-request line holds only fields Tern chose (no headers, no query): it skips the
  // redaction pass, which would otherwise walk every line.
  const lineLogger = logger === true || level === undefined ? base : base.child({}, { level });
  return {
    failures: structured,
    structured,
    requestLine: requests === false ? undefined : { logger: lineLogger, level: requests },
    ids,
  };
}

function invalid(message: string): TernTypeError {
  return new TernTypeError('TERN_INVALID_ARGUMENT', message);
}
