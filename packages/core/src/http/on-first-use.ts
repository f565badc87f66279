/**
 * A getter that runs `load` on its first call and returns the same value from then on: for a
 * dependency only some requests need, so loading Tern does not load it.
 *
 * @example
 * const secureJson = onFirstUse(() => require('secure-json-parse') as typeof SecureJson);
 * secureJson().parse(text);
 */
export function onFirstUse<T>(load: () => T): () => T {
  let value: { loaded: T } | undefined;
  return () => (value ??= { loaded: load() }).loaded;
}
