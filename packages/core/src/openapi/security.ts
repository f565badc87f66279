import type { RouteInfo } from '../routing/route-info';
import type { OpenAPIConfig } from './config';
import { SecurityRequirementError } from './errors';
import type { SecurityScheme } from './models';

/**
 * Checks every route's `security` against the registered schemes, once, in `app.ready()`
 * (the route options table already checked its shape, `[{ schemeName: [scopes] }]`): every name
 * a registered scheme, and every scope of an OAuth2 requirement defined by one of that scheme's flows. (For other scheme
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
    for (const entry of route.security) {
      for (const [name, scopes] of Object.entries(entry)) checkScheme(where, name, scopes, config.securitySchemes);
    }
  }
}

function checkScheme(where: string, name: string, scopes: readonly string[], schemes: ReadonlyMap<string, SecurityScheme>): void {
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

function plural(word: string, items: unknown[]): string {
  return items.length === 1 ? word : `${word}s`;
}
