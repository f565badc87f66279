/**
 * The demo credentials, and the verifiers `enforceSecurity` calls with the credential each
 * scheme carries (a bearer token, or an API key's value). In a real app: verify a JWT, ask the
 * OAuth2 server (introspection), look the API key up in a database.
 */

/** Who is calling: a user behind a bearer token (OAuth2 access tokens are bearer tokens too), or a service behind an API key. */
export interface Principal {
  name: string;
  kind: 'user' | 'service';
  scopes: string[];
  /** Checked by `enforceSecurity` where a requirement lists roles (`{ bearerAuth: ['admin'] }`). */
  roles: string[];
}

export interface Credentials {
  /** Bearer token → user. */
  tokens: ReadonlyMap<string, Principal>;
  /** API key → service. */
  apiKeys: ReadonlyMap<string, Principal>;
}

/** Demo credentials, also shown in the scheme descriptions so /docs can be tried out. */
export const demoCredentials: Credentials = {
  tokens: new Map([
    ['alice-token', { name: 'alice', kind: 'user', scopes: ['notes:read', 'notes:write'], roles: ['admin'] }],
    ['bob-token', { name: 'bob', kind: 'user', scopes: ['notes:read'], roles: [] }],
  ]),
  apiKeys: new Map([['demo-key', { name: 'reporting', kind: 'service', scopes: [], roles: [] }]]),
};

/**
 * Verifiers over `credentials`: `user` and `service` resolve to the principal or null (for
 * HTTPBearer and APIKey schemes); `grant` resolves to `{ user, scopes }` or null (for OAuth2,
 * which also says which scopes the token grants).
 */
export function verifiers(credentials: Credentials) {
  const user = (token: string): Principal | null => credentials.tokens.get(token) ?? null;
  const service = (key: string): Principal | null => credentials.apiKeys.get(key) ?? null;
  const grant = (token: string): { user: Principal; scopes: string[] } | null => {
    const principal = user(token);
    return principal ? { user: principal, scopes: principal.scopes } : null;
  };
  return { user, service, grant };
}
