/**
 * RealWorld's authentication: `Authorization: Token <jwt>`. The scheme is declared once for the
 * document, routes declare `@Security('Token')` (or OPTIONAL_TOKEN), and `enforceSecurity`
 * checks exactly those declarations; `@User()` is then the signed-in account.
 */
import { APIKey, enforceSecurity, type Middleware, type SecurityRequirement, type TernApp } from '@tern/core';
import type { Tokens } from './auth';
import type { Conduit } from './conduit';

const TOKEN_PREFIX = /^Token\s+/i;

/**
 * Read by routes where signing in only changes what is shown (`favorited`, `following`): a valid
 * token makes the reader known, no token is fine. OpenAPI's `{}` entry is "no credentials".
 */
export const OPTIONAL_TOKEN: SecurityRequirement[] = [{ Token: [] }, {}];

/** Declares the `Token` scheme on the app and returns the middleware that enforces it. */
export function tokenSecurity(app: TernApp, conduit: Conduit, tokens: Tokens): Middleware {
  app.openapiConfig.addSecurityScheme(
    'Token',
    new APIKey({ name: 'Authorization', in: 'header', description: 'Send `Authorization: Token <jwt>`, the token that registering or logging in returns.' }),
  );
  return enforceSecurity(app, {
    Token: async (header) => {
      if (!TOKEN_PREFIX.test(header)) return null;
      const claims = tokens.verify(header.replace(TOKEN_PREFIX, ''));
      return claims && (await conduit.accountById(claims.userId));
    },
  });
}
