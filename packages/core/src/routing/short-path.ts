/** Longest path a 404/405 `detail` quotes; the full path is the problem's `instance` already. */
const DETAIL_PATH_CHARS = 200;

/**
 * The path as a 404/405 `detail` quotes it: cut after `DETAIL_PATH_CHARS` characters, so an
 * answer echoes a long target once (in `instance`), not twice.
 *
 * @example
 * shortPath('/a'.repeat(150)); // the first 200 characters, then '…'
 */
export function shortPath(path: string): string {
  return path.length <= DETAIL_PATH_CHARS ? path : `${path.slice(0, DETAIL_PATH_CHARS)}…`;
}
