/** What `make` throws, for a test to assert its code and message; the test fails when nothing is thrown. */
export function thrown(make: () => unknown): { code: string; message: string } {
  try {
    make();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('expected a throw; the call returned');
}

/** What `pending` rejects with; the test fails when it resolves or rejects with a non-Error. */
export async function rejection<E extends Error = Error>(pending: Promise<unknown>): Promise<E> {
  const error = await pending.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error as E;
}

/** What `app.ready()` fails with, for a test to assert its code and message; the test fails when startup succeeds. */
export async function startupError(app: { ready(): Promise<void> }): Promise<{ code: string; message: string }> {
  try {
    await app.ready();
  } catch (err) {
    return err as { code: string; message: string };
  }
  throw new Error('ready() succeeded');
}
