/**
 * `new TernApp({ logger: true })`: a pino logger made by Tern. pino is an optional peer of
 * `@tern/core`, loaded only here and only when asked for, so an app without it never needs it.
 */
import { TernError } from '../errors';
import type { LogLevel, TernLogger } from './logger';

type PinoFactory = (options: Record<string, unknown>) => TernLogger;

/** pino with JSON lines on stdout at `level` (default `'info'`) and `redact` censored. */
export function defaultLogger(redact: readonly string[], level: LogLevel | 'silent' = 'info'): TernLogger {
  let pino: PinoFactory;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    pino = require('pino') as PinoFactory;
  } catch (cause) {
    throw new TernError(
      'TERN_LOGGER_UNAVAILABLE',
      "new TernApp({ logger: true }) makes a pino logger, but 'pino' cannot be loaded: install it (npm i pino) or pass a logger of your own.",
      { cause },
    );
  }
  return pino({ level, redact: { paths: [...redact], censor: '[Redacted]' } });
}
