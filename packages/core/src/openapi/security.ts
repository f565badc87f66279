import type { RouteInfo } from '../routing/route-info';
import type { OpenAPIConfig } from './config';
import { SecurityRequirementError } from './errors';
import type { SecurityScheme } from './models';
import { isPlainObject } from './schema/shapes';

/**
 * Checks every route's `security` against the registered schemes, once, in `app.ready()`:
 * each entry must be a `{ schemeName: [scopes] }` object, every name a registered scheme, and
 * every scope of an OAuth2 requirement defined by one of that scheme's flows. (For other scheme
 * types OpenAPI 3.1 lets the list carry role names, so they are not checked.) Nothing here
 * enforces anything at request time: declaring security only describes it.
 *
 * Routes hidden from the document are checked too: a typo is a typo wherever it is.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
 * app.get('/me', { security: [{ bearerAuth: [] }] }, handler); // fine
 * app.get('/x', { security: [{ berearAuth: [] }] }, handler);  // ready() throws TERN_UNKNOWN_SECURITY_SCHEME
 */
export function validateSecurityRequirements(routes: readonly RouteInfo[], config: OpenAPIConfig): void {
  for (const route of routes) {
    if (route.security === undefined) continue;
    const where = `Route ${route.source}`;
    const security: unknown = route.security;
    if (!Array.isArray(security)) {
      throw invalid(`${where}: security must be a list of requirement objects such as [{ bearerAuth: [] }], got ${kind(security)}.`);
    }
    security.forEach((entry: unknown, index) => {
      if (!isPlainObject(entry)) {
        throw invalid(`${where}: security[${index}] must be an object mapping scheme names to scope lists, got ${kind(entry)}.`);
      }
      for (const [name, scopes] of Object.entries(entry)) {
        if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) {
          throw invalid(`${where}: security[${index}].${name} must be a list of scope names (use [] for none), got ${kind(scopes)}.`);
        }
        checkScheme(where, name, scopes as string[], config.securitySchemes);
      }
    });
  }
}

function checkScheme(where: string, name: string, scopes: string[], schemes: ReadonlyMap<string, SecurityScheme>): void {
  const scheme = schemes.get(name);
  if (!scheme) {
    const known = schemes.size > 0 ? `registered schemes: ${[...schemes.keys()].join(', ')}` : 'no scheme is registered';
    throw new SecurityRequirementError(
      'TERN_UNKNOWN_SECURITY_SCHEME',
      `${where}: security names the scheme '${name}', which is not registered (${known}). ` +
        `Register it with app.openapiConfig.addSecurityScheme('${name}', scheme) before app.ready().`,
    );
  }
  const defined = definedScopes(scheme);
  if (!defined) return;
  const unknown = scopes.filter((scope) => !defined.has(scope));
  if (unknown.length > 0) {
    const list = defined.size > 0 ? [...defined].join(', ') : 'none';
    throw new SecurityRequirementError(
      'TERN_UNKNOWN_SECURITY_SCOPE',
      `${where}: security asks the OAuth2 scheme '${name}' for ${plural('scope', unknown)} ${unknown.map((s) => `'${s}'`).join(', ')}, ` +
        `which none of its flows defines (defined scopes: ${list}).`,
    );
  }
}

/** The scopes an OAuth2 scheme defines, or undefined for schemes whose lists are free-form roles. */
function definedScopes(scheme: SecurityScheme): Set<string> | undefined {
  if (scheme.type !== 'oauth2') return undefined;
  const withScopes = scheme as SecurityScheme & { scopes?: () => Set<string> };
  if (typeof withScopes.scopes === 'function') return withScopes.scopes();
  // A hand-written scheme object: read the flows it renders.
  const flows = (scheme.toOpenAPI() as { flows?: Record<string, { scopes?: Record<string, string> }> }).flows ?? {};
  return new Set(Object.values(flows).flatMap((flow) => Object.keys(flow?.scopes ?? {})));
}

function invalid(message: string): SecurityRequirementError {
  return new SecurityRequirementError('TERN_INVALID_SECURITY_REQUIREMENT', message);
}

function plural(word: string, items: unknown[]): string {
  return items.length === 1 ? word : `${word}s`;
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value)}`;
}
