/**
 * RealWorld's authentication: `Authorization: Token <jwt>`, declared as `HTTPBearer({ scheme: 'Token' })`, once for the
 * document; routes say `@Authenticated()` (a token is required) or `@OptionalAuth()` (a token, if
 * sent, makes the reader known); `enforceSecurity` checks exactly those declarations with Tern's
 * `jwtVerifier`, and `@User()` is then the signed-in account.
 */
import { applyDecorators, enforceSecurity, HTTPBearer, Security, type Middleware, type TernApp } from '@tern/core';
import type { Tokens } from './auth';
import type { Conduit } from './conduit';

/** The scheme's name in the document and in `@Security`. */
const TOKEN = 'Token';

/** A valid token is required: 401 (documented by enforceSecurity, in the app's problemResponses schema) otherwise. */
export const Authenticated = () => Security(TOKEN);

/**
 * Anyone may call; a valid token makes the reader known (`favorited`, `following`). OpenAPI's
 * `{}` entry is "no credentials", tried after the token.
 */
export const OptionalAuth = () => applyDecorators(Security(TOKEN), Security({}));

/** Declares the `Token` scheme on the app and returns the middleware that enforces it. */
export function tokenSecurity(app: TernApp, conduit: Conduit, tokens: Tokens): Middleware {
  app.openapiConfig.addSecurityScheme(
    TOKEN,
    new HTTPBearer({ scheme: 'Token', description: 'Send `Authorization: Token <jwt>`, the token that registering or logging in returns.' }),
  );
  return enforceSecurity(app, {
    // enforceSecurity reads the word `Token` and hands the bare JWT to the verifier.
    [TOKEN]: tokens.verifier((claims) => conduit.accountById(claims.userId)),
  });
}
