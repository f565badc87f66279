/**
 * `enforceSecurity`: opt-in middleware that enforces the security requirements routes already
 * declare for the OpenAPI document, so the declaration and the check cannot drift apart.
 */
import type { TernApp } from '../app';
import { TernError, TernTypeError, type HTTPException } from '../errors';
import { requestError } from '../errors/request-error';
import type { TernRequest } from '../http/request';
import type { MatchedRoute } from '../http/matched-route';
import { markSecurityEnforced } from '../openapi/enforced';
import type { Middleware } from '../routing/types';
import { escapeRegex } from '../routing/path';
import { jwtVerifierParts } from './jwt-verifier';

/**
 * Checks one credential (the bearer token, or the API key's value) and resolves to:
 * - for `HTTPBearer` and `APIKey` schemes: the principal (it becomes `req.user`), or
 *   `null`/`undefined`/`false` when the credential is not valid;
 * - for `OAuth2` schemes: `{ user, scopes }` (the granted scopes), or `null`/`undefined`/`false`.
 *
 * Throwing an `HTTPException` answers with it; any other throw is a 500.
 */
export type SecurityVerifier = (credential: string, req: TernRequest) => unknown;

/** What an OAuth2 verifier resolves to for a valid token. */
export interface OAuth2Grant {
  user: unknown;
  scopes: readonly string[];
}

/** Verifiers by the name the scheme is registered under in `app.openapiConfig`. */
export type SecurityVerifiers = Record<string, SecurityVerifier>;

/**
 * Options of {@link enforceSecurity}.
 *
 * @example
 * enforceSecurity(app, verifiers, { roles: (user) => (user as Account).groups });
 */
export interface EnforceSecurityOptions {
  /**
   * The roles a principal holds, which requirements like `{ bearerAuth: ['admin'] }` are checked
   * against on HTTP, API-key and OpenID Connect schemes (OAuth2 requirements list scopes, which
   * the OAuth2 verifier grants). Default: the principal's `roles` property, when it is a list of
   * strings.
   */
  roles?: (principal: unknown, scheme: string) => readonly string[] | undefined | null;
}

/**
 * `bearer`: a token after an auth-scheme word in `Authorization` (`Bearer`, or `Token`…);
 * `oauth2`/`openIdConnect`: a bearer token (the first grants scopes, the second has roles).
 */
type Kind =
  | { type: 'bearer'; word: string; pattern: RegExp }
  | { type: 'oauth2' }
  | { type: 'openIdConnect' }
  | { type: 'apiKey'; in: 'header' | 'query' | 'cookie'; name: string };

/** A registered scheme with its verifier: how to read the credential and how to judge it. */
interface Scheme {
  name: string;
  kind: Kind;
  verify: SecurityVerifier;
}

/** One requirement entry: every scheme in it, each with its required scopes (OAuth2) or roles (the others). */
type Entry = Array<{ scheme: Scheme; scopes: string[] }>;

/** `null`: the route is public (no `security`, or `[]`). */
type Plan = Entry[] | null;

type Check = { state: 'missing' } | { state: 'invalid' } | { state: 'ok'; user: unknown; scopes: ReadonlySet<string> };

const MISSING: Check = { state: 'missing' };
const INVALID: Check = { state: 'invalid' };
const NO_SCOPES: ReadonlySet<string> = new Set();

/** The default `roles`: the principal's own `roles` list. */
function ownRoles(principal: unknown): readonly string[] | undefined {
  const roles = (principal as { roles?: unknown } | null | undefined)?.roles;
  return Array.isArray(roles) ? roles : undefined;
}

/**
 * Middleware that enforces each route's declared `security` with OpenAPI's semantics: entries are
 * alternatives tried in order (the first satisfied wins; an empty entry `{}`, anonymous, last), every scheme of an entry is required,
 * listed scopes (OAuth2) or roles (every other scheme, held as `principal.roles` or what the
 * `roles` option says) must all be there, and a route with no `security` (or `[]`) is public.
 * Missing or invalid credentials are a 401 with `WWW-Authenticate`; valid credentials lacking a
 * scope or role, a 403.
 * The satisfied entry's first principal becomes `req.user`; all of them are in
 * `req.state.principals`, by scheme name.
 *
 * Credentials are read as each registered scheme says: `HTTPBearer`, `OAuth2` and OpenID Connect from
 * `Authorization: Bearer <token>` (`Token <jwt>` for `new HTTPBearer({ scheme: 'Token' })`), `APIKey` from its header, query parameter or cookie. A verifier
 * named after an unregistered scheme, or a route requiring a scheme that has no verifier, fails
 * `app.ready()`.
 *
 * Declaring security never enforces it; adding this middleware does, for every route.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
 * app.openapiConfig.addSecurityScheme('oauth2', new OAuth2({ flows: { ... } }));
 * app.addMiddleware(enforceSecurity(app, {
 *   bearerAuth: jwtVerifier({ jwksUri: 'https://issuer.example/.well-known/jwks.json', algorithms: ['RS256'] }),
 *   apiKey: async (key) => services.byKey(key),                      // the principal, or null
 *   oauth2: async (token) => {
 *     const claims = await introspect(token);
 *     return claims && { user: claims.sub, scopes: claims.scope.split(' ') };
 *   },
 * }));
 * app.delete('/users/{id}', { security: [{ bearerAuth: ['admin'] }] }, handler);   // 403 unless req.user.roles has 'admin'
 */
export function enforceSecurity(app: TernApp, verifiers: SecurityVerifiers, options: EnforceSecurityOptions = {}): Middleware {
  if (!app || typeof app.onReady !== 'function' || !app.openapiConfig) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'enforceSecurity(app, verifiers): pass the TernApp whose security schemes to enforce.');
  }
  if (verifiers === null || typeof verifiers !== 'object') {
    throw new TernError('TERN_INVALID_SECURITY_VERIFIER', 'enforceSecurity(app, verifiers): verifiers must be an object of scheme name → function.');
  }
  for (const [name, verify] of Object.entries(verifiers)) {
    if (typeof verify !== 'function') {
      throw new TernError('TERN_INVALID_SECURITY_VERIFIER', `enforceSecurity: the verifier for '${name}' must be a function (credential, req) => user.`);
    }
  }
  if (options === null || typeof options !== 'object' || (options.roles !== undefined && typeof options.roles !== 'function')) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'enforceSecurity(app, verifiers, { roles }): roles is a function (principal, scheme) => string[].');
  }
  const rolesOf = options.roles ?? ownRoles;
  const given = { ...verifiers };
  // jose (an ESM-only package) loads in ready(), so a start without it fails, not a request.
  const preparing = Object.values(given).flatMap((verify) => jwtVerifierParts(verify) ?? []);
  if (preparing.length > 0) app.onStartup(async function loadJwtVerifiers() {
    await Promise.all(preparing.map((verifier) => verifier.prepare()));
  });
  // The document lists the 401/403 this middleware answers on routes that declare security, and
  // the 503 of a key server that is down on routes taking a scheme verified with a jwksUri.
  const keyServers = Object.entries(given).filter(([, verify]) => jwtVerifierParts(verify)?.usesKeyServer).map(([name]) => name);
  markSecurityEnforced(app.openapiConfig, new Set(keyServers));
  const schemes = new Map<string, Scheme>();

  /** Reads the registered schemes; a verifier for an unknown or unsupported scheme is an error. */
  const resolveSchemes = () => {
    for (const [name, verify] of Object.entries(given)) {
      const registered = app.openapiConfig.securitySchemes.get(name);
      if (!registered) {
        throw new TernError(
          'TERN_UNKNOWN_SECURITY_SCHEME',
          `enforceSecurity has a verifier for '${name}', but no security scheme has that name; register it with app.openapiConfig.addSecurityScheme('${name}', …).`,
        );
      }
      schemes.set(name, { name, kind: kindOf(name, registered.toOpenAPI() as unknown as Record<string, unknown>), verify });
    }
  };
  // Every route's requirements are compiled when the app starts, so a route asking for a scheme
  // without a verifier fails ready() rather than a request.
  const plans = new Map<MatchedRoute, Plan>();
  app.onReady((routes) => {
    resolveSchemes();
    for (const route of routes) plans.set(route, compilePlan(route, schemes));
  });

  return async function enforceSecurityMiddleware(req, res, next) {
    const plan = req.route ? plans.get(req.route) : undefined;
    if (!plan) return next();
    await authorize(plan, req, rolesOf);
    return next();
  };
}

function kindOf(name: string, openapi: Record<string, unknown>): Kind {
  if (openapi.type === 'http' && typeof openapi.scheme === 'string' && !/^(basic|digest)$/i.test(openapi.scheme)) {
    return tokenKind(openapi.scheme);
  }
  if (openapi.type === 'oauth2') return { type: 'oauth2' };
  if (openapi.type === 'openIdConnect') return { type: 'openIdConnect' };
  if (openapi.type === 'apiKey' && (openapi.in === 'header' || openapi.in === 'query' || openapi.in === 'cookie')) {
    return { type: 'apiKey', in: openapi.in, name: String(openapi.name) };
  }
  throw new TernError(
    'TERN_UNENFORCEABLE_SECURITY',
    `enforceSecurity cannot check scheme '${name}' (type ${String(openapi.type)}${openapi.scheme ? `, scheme ${String(openapi.scheme)}` : ''}): it enforces HTTPBearer, APIKey, OAuth2 and OpenID Connect schemes.`,
  );
}

/** `Authorization: <word> <token68>`, the word in any case; challenges say it as registered (`Bearer` for bearer). */
function tokenKind(scheme: string): { type: 'bearer'; word: string; pattern: RegExp } {
  const word = scheme.toLowerCase() === 'bearer' ? 'Bearer' : scheme;
  return { type: 'bearer', word, pattern: new RegExp(`^${escapeRegex(word)} +([A-Za-z0-9\\-._~+/]+=*) *$`, 'i') };
}

/** OAuth2 and OpenID Connect access tokens arrive as `Authorization: Bearer <token>`. */
const OAUTH2_TOKEN = tokenKind('bearer');

function compilePlan(route: MatchedRoute, schemes: Map<string, Scheme>): Plan {
  const security = route.security;
  if (!security || security.length === 0) return null;
  // An empty entry ({}, anonymous allowed) is tried last, wherever it was written: credentials a
  // client sends are always read, so a signed-in reader is never taken for an anonymous one.
  const ordered = [...security.filter((r) => Object.keys(r).length > 0), ...security.filter((r) => Object.keys(r).length === 0)];
  return ordered.map((requirement) =>
    Object.entries(requirement).map(([name, scopes]) => {
      const scheme = schemes.get(name);
      // Every name is a registered scheme: ready() checked the routes' security (openapi/security.ts) before the ready hooks run.
      if (!scheme) {
        throw new TernError(
          'TERN_MISSING_SECURITY_VERIFIER',
          `Route ${route.source} requires '${name}', but enforceSecurity was given no verifier for it; add one: enforceSecurity(app, { ${name}: async (credential, req) => … }).`,
        );
      }
      return { scheme, scopes: [...scopes] };
    }),
  );
}

function credentialOf(kind: Kind, req: TernRequest): string | undefined {
  if (kind.type === 'apiKey') {
    const value = kind.in === 'header' ? req.headers.get(kind.name) : kind.in === 'query' ? req.queryParams.get(kind.name) : cookieOf(kind.name, req);
    return value ? value : undefined;
  }
  const header = req.headers.get('authorization');
  if (!header) return undefined;
  const m = (kind.type === 'bearer' ? kind : OAUTH2_TOKEN).pattern.exec(header);
  return m ? m[1] : undefined;
}

/**
 * A cookie API key, also under the names browsers give it over HTTPS: `__Host-sid` and
 * `__Secure-sid` are `sid` with attributes the browser enforces (session() names its cookie so
 * over HTTPS), and are preferred, since no other site or plain-HTTP page can set them.
 */
function cookieOf(name: string, req: TernRequest): string | undefined {
  return req.cookies.get(`__Host-${name}`) || req.cookies.get(`__Secure-${name}`) || req.cookies.get(name);
}

async function check(scheme: Scheme, req: TernRequest): Promise<Check> {
  const credential = credentialOf(scheme.kind, req);
  if (credential === undefined) return MISSING;
  // A jwtVerifier on an OAuth2 scheme grants the token's own scopes.
  const jwt = scheme.kind.type === 'oauth2' ? jwtVerifierParts(scheme.verify) : undefined;
  const result = await (jwt ? jwt.grant(credential, req) : scheme.verify(credential, req));
  if (result === null || result === undefined || result === false) return INVALID;
  if (scheme.kind.type !== 'oauth2') return { state: 'ok', user: result, scopes: NO_SCOPES };
  const grant = result as Partial<OAuth2Grant>;
  if (typeof grant !== 'object' || !Array.isArray(grant.scopes)) {
    throw new TernError(
      'TERN_INVALID_SECURITY_VERIFIER',
      `The verifier for OAuth2 scheme '${scheme.name}' must resolve to { user, scopes } (or null for an invalid token).`,
    );
  }
  return { state: 'ok', user: grant.user, scopes: new Set(grant.scopes) };
}

/** What a check's principal holds of what a requirement lists: OAuth2 scopes granted, or roles. */
function heldBy(scheme: Scheme, result: Check & { state: 'ok' }, rolesOf: NonNullable<EnforceSecurityOptions['roles']>): ReadonlySet<string> {
  if (scheme.kind.type === 'oauth2') return result.scopes;
  const roles = rolesOf(result.user, scheme.name);
  return Array.isArray(roles) ? new Set(roles.filter((role): role is string => typeof role === 'string')) : NO_SCOPES;
}

/** Tries the entries in order; resolves when one is satisfied, throws the 401/403 otherwise. */
async function authorize(plan: Entry[], req: TernRequest, rolesOf: NonNullable<EnforceSecurityOptions['roles']>): Promise<void> {
  const checks = new Map<Scheme, Check>();
  const held = new Map<Scheme, ReadonlySet<string>>();
  const lacking: Array<{ scheme: Scheme; scopes: string[] }> = [];
  for (const entry of plan) {
    let satisfied = true;
    for (const { scheme, scopes } of entry) {
      let result = checks.get(scheme);
      if (!result) checks.set(scheme, (result = await check(scheme, req)));
      if (result.state !== 'ok') {
        satisfied = false;
        break;
      }
      if (scopes.length === 0) continue;
      let granted = held.get(scheme);
      if (!granted) held.set(scheme, (granted = heldBy(scheme, result, rolesOf)));
      if (!scopes.every((scope) => (granted as ReadonlySet<string>).has(scope))) {
        lacking.push({ scheme, scopes });
        satisfied = false;
        break;
      }
    }
    if (satisfied) {
      const principals: Record<string, unknown> = {};
      for (const { scheme } of entry) principals[scheme.name] = (checks.get(scheme) as { user: unknown }).user;
      if (entry.length > 0) req.user = principals[entry[0].scheme.name];
      req.state.principals = principals;
      return;
    }
  }
  throw lacking.length > 0 ? forbidden(lacking) : unauthorized(plan, checks);
}

function unauthorized(plan: Entry[], checks: Map<Scheme, Check>): HTTPException {
  const challenges: string[] = [];
  // One challenge per auth-scheme word (Bearer, Token…), in the order first met; invalid wins over missing.
  const tokenStates = new Map<string, 'missing' | 'invalid'>();
  let anyInvalid = false;
  for (const entry of plan) {
    for (const { scheme } of entry) {
      const state = checks.get(scheme)?.state;
      if (state === 'invalid') anyInvalid = true;
      if (scheme.kind.type === 'apiKey') {
        const challenge = `APIKey in="${scheme.kind.in}", name="${scheme.kind.name}"`;
        if (!challenges.includes(challenge)) challenges.push(challenge);
      } else {
        const word = scheme.kind.type === 'bearer' ? scheme.kind.word : 'Bearer';
        if (tokenStates.get(word) !== 'invalid') tokenStates.set(word, state === 'invalid' ? 'invalid' : 'missing');
      }
    }
  }
  challenges.unshift(...[...tokenStates].map(([word, state]) => (state === 'invalid' ? `${word} error="invalid_token"` : word)));
  return requestError(
    'TERN_UNAUTHORIZED',
    anyInvalid ? 'The credentials sent are not valid.' : 'Authentication is required.',
    { headers: { 'www-authenticate': challenges.join(', ') } },
  );
}

/** A 403; its `WWW-Authenticate` names the missing OAuth2 scopes (RFC 6750), roles have no challenge. */
function forbidden(lacking: Array<{ scheme: Scheme; scopes: string[] }>): HTTPException {
  const needed = lacking.map(({ scheme, scopes }) => `${scheme.name} [${scopes.join(' ')}]`).join(' or ');
  const scopeLists = lacking.filter((l) => l.scheme.kind.type === 'oauth2');
  const scopes = [...new Set(scopeLists.flatMap((l) => l.scopes))].join(' ');
  const what = scopeLists.length === lacking.length ? 'scope' : scopeLists.length === 0 ? 'role' : 'scope or role';
  return requestError('TERN_FORBIDDEN', `Insufficient ${what}: this route requires ${needed}.`, {
    headers: scopeLists.length > 0 ? { 'www-authenticate': `Bearer error="insufficient_scope", scope="${scopes}"` } : undefined,
  });
}
