/**
 * Authentication: the routes declare `@Security('bearerAuth')` for the OpenAPI document, and
 * `enforceSecurity` checks exactly those declarations. The verifier below turns a bearer token
 * into the user that handlers receive as `req.user` (or `@User()`).
 */
import type { Middleware, SecurityVerifier } from '@tern/core';
import type { Store } from './store';

/** `Authorization: Bearer <token>` → the user, or null for an unknown token (a 401). */
export function bearerVerifier(store: Store): SecurityVerifier {
  return async (token) => store.userForToken(token) ?? null;
}

/** Personal data must not be cached by shared caches. */
export const noStore: Middleware = async (req, res, next) => {
  const response = await next();
  return response.setHeader('Cache-Control', 'no-store');
};
