import type { OpenAPIConfig } from './config';

/**
 * Apps whose declared `security` is enforced (`enforceSecurity` was set up for them). Only then
 * can an operation answer Tern's own 401 and 403, so only then does the document list them.
 * A WeakSet beside the config rather than a public option: it is a fact about the app that
 * `enforceSecurity` records when it is created, before `ready()` builds the document.
 */
const enforced = new WeakSet<OpenAPIConfig>();

/** Called by `enforceSecurity(app, …)`. */
export function markSecurityEnforced(config: OpenAPIConfig): void {
  enforced.add(config);
}

export function isSecurityEnforced(config: OpenAPIConfig): boolean {
  return enforced.has(config);
}
