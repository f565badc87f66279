import type { Page } from './conduit';
import type { Paging } from './dto';

/** RealWorld's defaults for what the query left out; the bounds are the model's (dto.ts). */
export function pageOf(query: Paging): Page {
  return { limit: query.limit ?? 20, offset: query.offset ?? 0 };
}
