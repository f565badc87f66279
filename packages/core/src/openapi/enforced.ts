import type { OpenAPIConfig } from './config';

/**
 * Apps whose declared `security` is enforced (`enforceSecurity` was set up for them), each with
 * the schemes whose verifier fetches keys from a key server. Only then can an operation answer
 * Tern's own 401 and 403 (and, for those schemes, 503), so only then does the document list them.
 * A WeakMap beside the config rather than a public option: it is a fact about the app that
 * `enforceSecurity` records when it is created, before `ready()` builds the document.
 */
const enforced = new WeakMap<OpenAPIConfig, ReadonlySet<string>>();

/** Called by `enforceSecurity(app, …)`; `keyServerSchemes` name the schemes verified with a `jwksUri`. */
export function markSecurityEnforced(config: OpenAPIConfig, keyServerSchemes: ReadonlySet<string> = new Set()): void {
  enforced.set(config, new Set([...(enforced.get(config) ?? []), ...keyServerSchemes]));
}

export function isSecurityEnforced(config: OpenAPIConfig): boolean {
  return enforced.has(config);
}

/** The schemes whose verifier can answer 503 `TERN_KEY_SERVER_UNAVAILABLE` (empty when nothing is enforced). */
export function keyServerSchemes(config: OpenAPIConfig): ReadonlySet<string> {
  return enforced.get(config) ?? new Set();
}
