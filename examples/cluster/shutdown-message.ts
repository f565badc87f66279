/**
 * The one message the primary sends its workers. A message rather than a signal: after Ctrl-C a
 * terminal has already sent SIGINT to every worker, and close-with-grace treats a second signal
 * as "exit now", which would cut in-flight requests off.
 *
 * @example
 * worker.send(SHUTDOWN_MESSAGE);
 */
export const SHUTDOWN_MESSAGE = { type: 'tern:shutdown' } as const;

/**
 * Whether an IPC message is the primary asking this worker to drain and exit.
 *
 * @example
 * process.on('message', (message) => { if (isShutdownMessage(message)) closer.close(); });
 */
export function isShutdownMessage(message: unknown): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === SHUTDOWN_MESSAGE.type;
}
