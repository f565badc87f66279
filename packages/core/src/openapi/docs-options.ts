import { TernError } from '../errors';

/**
 * Checks of the docs pages' header options, when the app is built: a value Node cannot send
 * (a line break) or that would change the meaning of the policy around it (a `;` starting a new
 * directive, a `,` starting a second policy) must fail at startup, not on a visitor's request.
 */

const SOURCE = /^[\x21-\x2b\x2d-\x3a\x3c-\x7e]+$/; // printable ASCII but space, ',' and ';'
const POLICY = /^[\x20-\x7e]+$/; // printable ASCII and spaces: no tab, CR, LF or other controls

function invalid(message: string): TernError {
  return new TernError('TERN_INVALID_OPENAPI_OPTIONS', message);
}

/** A list of CSP source expressions (`'self'`, `https://example.com`, `*.example.com`…). */
export function cspSources(option: string, value: unknown, { allowEmpty = false } = {}): readonly string[] {
  if (!Array.isArray(value)) throw invalid(`openapi.${option} must be a list of CSP sources, e.g. ["'self'", 'https://example.com'].`);
  if (!allowEmpty && value.length === 0) throw invalid(`openapi.${option} is empty: write ["'none'"] to allow no source.`);
  for (const source of value as unknown[]) {
    if (typeof source !== 'string' || !SOURCE.test(source)) {
      throw invalid(`openapi.${option} has ${JSON.stringify(source)}: each entry is one CSP source, without spaces, ',' or ';'.`);
    }
  }
  if (value.length > 1 && value.includes("'none'")) throw invalid(`openapi.${option} lists 'none' with other sources; browsers would ignore 'none'.`);
  return Object.freeze([...(value as string[])]);
}

/** A whole Content-Security-Policy header value, or `false` for none. */
export function cspPolicy(value: unknown): string | false | undefined {
  if (value === undefined || value === false) return value;
  if (typeof value !== 'string' || !POLICY.test(value) || value.trim() === '') {
    throw invalid('openapi.docsContentSecurityPolicy must be a non-empty policy on one line of printable ASCII, or false to send none.');
  }
  return value;
}
