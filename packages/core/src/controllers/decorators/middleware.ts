import type { Middleware } from '../../routing/types';
import { levelTarget, misuse, prepend, type ClassOrMethodDecorator } from './targets';

/**
 * Runs middleware around one route (on a method) or around every route of the controller (on the
 * class; class middleware runs outside method middleware). Listed middleware and several
 * `@UseMiddleware` run in the order written, the first outermost.
 *
 * @example
 * @Post('/')
 * @UseMiddleware(rateLimit, audit)
 * async create(@Body() body: CreatePostDto) { ... }
 */
export function UseMiddleware(...middleware: Middleware[]): ClassOrMethodDecorator {
  if (middleware.length === 0 || !middleware.every((m) => typeof m === 'function')) {
    throw misuse('@UseMiddleware(...middleware) expects one or more async (req, res, next) functions.');
  }
  return (target, key, descriptor) => {
    prepend(levelTarget('@UseMiddleware', target, key, descriptor).middleware, middleware);
  };
}
