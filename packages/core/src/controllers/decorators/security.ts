import type { SecurityRequirement } from '../../routing/types';
import { flagDecorator, isStringArray, levelTarget, misuse, prepend, type ClassOrMethodDecorator } from './targets';

/**
 * Declares a security requirement for the OpenAPI document. Several `@Security` decorators are
 * alternatives (any one suffices), in the order written; `@Security({ a: [], b: [] })` requires all
 * of its schemes together, and `@Security({})` (OpenAPI's empty requirement) allows anonymous
 * access: with other `@Security` entries, that is optional authentication (credentials are read
 * when sent, `req.user` is unset when not). On the class it applies to every route that declares
 * none itself. Declaring never enforces: add `enforceSecurity(app, verifiers)` for that.
 *
 * @example
 * @Get('/me')
 * @Security('bearerAuth')                      // either a bearer token…
 * @Security('oauth2', ['read:users'])          // …or an OAuth2 token with the read:users scope
 * async me(@User() user: Account) { return user; }
 *
 * @Get('/articles/{slug}')
 * @Security('bearerAuth')                      // signed in: req.user is the reader…
 * @Security({})                                // …or anonymous
 * async article(@Param('slug') slug: string, @Req() req: TernRequest) { return articles.get(slug, req.user); }
 */
export function Security(scheme: string, scopes?: string[]): ClassOrMethodDecorator;
export function Security(requirement: SecurityRequirement): ClassOrMethodDecorator;
export function Security(schemeOrRequirement: string | SecurityRequirement, scopes: string[] = []): ClassOrMethodDecorator {
  const requirement = toRequirement(schemeOrRequirement, scopes);
  return (target, key, descriptor) => {
    const level = levelTarget('@Security', target, key, descriptor);
    prepend(level.security, [requirement]);
  };
}

function toRequirement(schemeOrRequirement: unknown, scopes: unknown): SecurityRequirement {
  if (typeof schemeOrRequirement === 'string') {
    if (schemeOrRequirement === '') throw misuse('@Security(scheme, scopes): the scheme name is empty.');
    if (!isStringArray(scopes)) throw misuse(`@Security('${schemeOrRequirement}', scopes): scopes must be a list of strings.`);
    return { [schemeOrRequirement]: [...scopes] };
  }
  if (schemeOrRequirement === null || typeof schemeOrRequirement !== 'object' || Array.isArray(schemeOrRequirement)) {
    throw misuse("@Security expects a scheme name ('bearerAuth'), a requirement object ({ apiKey: [], oauth2: ['read'] }), or {} (anonymous allowed).");
  }
  const entries = Object.entries(schemeOrRequirement);
  const requirement: SecurityRequirement = {};
  for (const [name, list] of entries) {
    if (!isStringArray(list)) throw misuse(`@Security({ ${name}: … }): scopes must be a list of strings.`);
    requirement[name] = [...list];
  }
  return requirement;
}

/**
 * Declares that no security applies (`security: []` in the OpenAPI document), overriding the
 * controller's requirements for this route; on the class, for every route that declares none.
 *
 * @example
 * @Controller('/posts')
 * @Security('bearerAuth')
 * class PostController {
 *   @Get('/')
 *   @Public()
 *   async list() { ... }
 * }
 */
export const Public = flagDecorator('@Public', 'public');
