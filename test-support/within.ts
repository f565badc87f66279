/**
 * `promise`, or a rejection naming what did not happen within `timeoutMs`. For waits on other
 * processes: the bound is generous (a minute, say), so only something that never happens meets it,
 * and the failure says what was awaited instead of a bare jest timeout.
 *
 * @example
 * const code = await within('the exit after SIGTERM', exited, 60_000);
 */
export async function within<T>(what: string | (() => string), promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${typeof what === 'function' ? what() : what}: nothing within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
