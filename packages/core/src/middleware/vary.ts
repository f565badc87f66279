import type { TernResponse } from '../http/response';

/**
 * Adds `field` to the response's `Vary` header unless it is already listed (names compare
 * case-insensitively) or `Vary: *` already says the answer varies on everything. Appending rather
 * than replacing keeps what handlers and other middleware declared.
 *
 * @example
 * appendVary(res, 'Origin'); // "Vary: Accept-Encoding" becomes "Vary: Accept-Encoding, Origin"
 */
export function appendVary(res: TernResponse, field: string): void {
  const current = res.getHeader('vary');
  const existing = current === undefined ? '' : ([] as string[]).concat(current).join(', ');
  const listed = existing
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  if (listed.includes('*') || listed.includes(field.toLowerCase())) return;
  res.setHeader('vary', listed.length === 0 ? field : `${existing}, ${field}`);
}
