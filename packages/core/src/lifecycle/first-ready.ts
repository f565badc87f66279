/**
 * "The first app of this process has compiled": the moment the start-up code has run once. The
 * bundle loader (compile-cache/load-bundle.ts) writes V8's code cache then, so that the cache
 * holds the functions a start compiles, not only the bundle's top level.
 */
let waiting: Array<() => void> | undefined = [];

/** Runs `listener` when the first `ready()` of the process succeeds (at once if it already has). */
export function onFirstReady(listener: () => void): void {
  if (waiting) waiting.push(listener);
  else listener();
}

/** Called by `TernApp.ready()` when it succeeds; only the first call does anything. */
export function announceFirstReady(): void {
  const listeners = waiting;
  if (!listeners) return;
  waiting = undefined;
  for (const listener of listeners) listener();
}
