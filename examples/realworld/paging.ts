import type { Page } from './conduit';
import { unprocessable } from './conduit';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

/** `?limit=&offset=` with RealWorld's defaults; out of range is a 422, not a silent clamp. */
export function pageOf(limit: number = DEFAULT_LIMIT, offset: number = 0): Page {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw unprocessable(`limit must be an integer from 1 to ${MAX_LIMIT}`);
  if (!Number.isInteger(offset) || offset < 0) throw unprocessable('offset must be a non-negative integer');
  return { limit, offset };
}
