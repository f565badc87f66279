/**
 * Neighbouring middleware that can run as one layer. A layer carrying `[FUSE]` says how to join a
 * run of its kind (the same `[FUSE]` function, next to each other in a chain) into one layer;
 * `compose` joins them once, at startup. fromConnect uses it so that a run of Connect middleware
 * costs one Tern layer, as a Connect stack is one Express layer: the Express additions, the
 * promise and the hand-over of what the middleware left on Node's request are paid once per
 * run, not once per middleware.
 */
import type { Middleware } from '../routing/types';

export const FUSE = Symbol('fuse');

/** A middleware that can join its neighbours of the same kind. */
export type FusableMiddleware = Middleware & { [FUSE]?: (run: readonly Middleware[]) => Middleware };

/** The list with each run of two or more neighbours sharing a `[FUSE]` joined into one layer. */
export function fuseNeighbours(middleware: readonly Middleware[]): readonly Middleware[] {
  const fused: Middleware[] = [];
  for (let start = 0; start < middleware.length; ) {
    const fuse = (middleware[start] as FusableMiddleware)[FUSE];
    let end = start + 1;
    while (fuse !== undefined && end < middleware.length && (middleware[end] as FusableMiddleware)[FUSE] === fuse) end++;
    fused.push(end - start > 1 ? fuse!(middleware.slice(start, end)) : middleware[start]);
    start = end;
  }
  return fused;
}
