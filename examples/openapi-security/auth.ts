/**
 * Checking credentials. Tern only *describes* security in the OpenAPI document; this middleware
 * is what enforces it, reading the same declarations: each route's `security` (on `req.route`)
 * and the registered schemes (for where each API key travels).
 */
import { APIKey, HTTPException, type Middleware, type OpenAPIConfig, type TernRequest } from '@tern/core';

/** Who is calling: a user behind a bearer token (OAuth2 access tokens are bearer tokens too), or a service behind an API key. */
export interface Principal {
  name: string;
  kind: 'user' | 'service';
  scopes: string[];
}

export interface Credentials {
  /** Bearer token → user. In a real app: verify a JWT, or ask the OAuth2 server (introspection). */
  tokens: ReadonlyMap<string, Principal>;
  /** API key → service. */
  apiKeys: ReadonlyMap<string, Principal>;
}

/** Demo credentials, also shown in the scheme descriptions so /docs can be tried out. */
export const demoCredentials: Credentials = {
  tokens: new Map([
    ['alice-token', { name: 'alice', kind: 'user', scopes: ['notes:read', 'notes:write'] }],
    ['bob-token', { name: 'bob', kind: 'user', scopes: ['notes:read'] }],
  ]),
  apiKeys: new Map([['demo-key', { name: 'reporting', kind: 'service', scopes: [] }]]),
};

/**
 * App middleware: a bearer token, when sent, must be valid (401 otherwise) and becomes
 * `req.user`. Then the matched route's `security` is enforced: one of its entries must be met,
 * with every scheme named in that entry. No `security` (or `[]`) means public, so unmatched
 * requests and Tern's own `/docs` and `/openapi.json` pass through.
 *
 * @example
 * app.addMiddleware(authenticate(app.openapiConfig, demoCredentials));
 */
export function authenticate(openapi: OpenAPIConfig, credentials: Credentials): Middleware {
  return async (req, res, next) => {
    const authorization = req.headers.get('authorization');
    let bearer: Principal | undefined;
    if (authorization !== undefined) {
      const token = /^Bearer +(\S+)$/i.exec(authorization)?.[1];
      bearer = token === undefined ? undefined : credentials.tokens.get(token);
      if (!bearer) throw new HTTPException(401, 'The bearer token is missing or invalid.', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
      req.user = bearer;
    }
    const requirements = req.route?.security;
    if (!requirements || requirements.length === 0) return next();

    const apiKey = (scheme: string) => apiKeyPrincipal(req, openapi, credentials, scheme);
    const meets = (scheme: string, scopes: string[]): Principal | undefined => {
      if (openapi.securitySchemes.get(scheme) instanceof APIKey) return apiKey(scheme);
      // bearerAuth and oauth2 both arrive as `Authorization: Bearer <token>`.
      return bearer && scopes.every((scope) => bearer.scopes.includes(scope)) ? bearer : undefined;
    };
    for (const requirement of requirements) {
      const principals = Object.entries(requirement).map(([scheme, scopes]) => meets(scheme, scopes));
      if (principals.every((p): p is Principal => p !== undefined)) {
        req.user ??= principals[0];
        return next();
      }
    }
    // Credentials that work but are not enough are a 403; none at all is a 401.
    const presented = bearer !== undefined || [...openapi.securitySchemes.keys()].some((name) => apiKey(name) !== undefined);
    if (presented) throw new HTTPException(403, 'These credentials do not allow this operation.');
    throw new HTTPException(401, 'Credentials are required.', { 'WWW-Authenticate': 'Bearer' });
  };
}

/** The service behind a valid API key sent where the scheme says (header, query or cookie). */
function apiKeyPrincipal(req: TernRequest, openapi: OpenAPIConfig, credentials: Credentials, scheme: string): Principal | undefined {
  const declared = openapi.securitySchemes.get(scheme);
  if (!(declared instanceof APIKey)) return undefined;
  const { name } = declared;
  const value = declared.in === 'header' ? req.headers.get(name) : declared.in === 'query' ? req.queryParams.get(name) : req.cookies.get(name);
  return value === undefined ? undefined : credentials.apiKeys.get(value);
}
