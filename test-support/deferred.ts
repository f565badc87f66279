/** A promise with its resolve function, for a test to wait on something a handler does. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** The `code` of a rejection, or 'resolved'. */
export async function outcome(pending: Promise<unknown>): Promise<string> {
  try {
    await pending;
    return 'resolved';
  } catch (err) {
    return String((err as { code?: string }).code ?? (err as Error).message);
  }
}
