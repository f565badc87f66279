import pino from 'pino';

/**
 * Scenario 9's logger, the same for every server: pino at `info`, JSON lines to /dev/null through
 * pino's asynchronous destination (what a service logging to stdout uses), so the cost measured
 * is the framework's logging work (building, serialising and writing the lines), not a disk's.
 */
export function benchLogger(): pino.Logger {
  return pino({ level: 'info' }, pino.destination({ dest: '/dev/null', sync: false }));
}
