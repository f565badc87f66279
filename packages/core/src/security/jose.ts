/**
 * `jose` (JWT, JWS and JWK sets), loaded on first use.
 *
 * jose 6 is ESM-only, and Tern is CommonJS. A real `import()` (in esm-import.ts) loads it
 * everywhere Tern runs:
 * - plain Node 20 and ts-node: `import()` from CommonJS always works (`require(esm)` needs
 *   20.19+, so it is not used);
 * - the built package: esm-import.ts is built to its own file beside the bundle, which the
 *   bundle `require`s on first use (an `import()` inside the bundle's `vm.Script` would have no
 *   loader); jose itself is never bundled;
 * - jest: ts-jest keeps `import()` (module `node16`), and jest's CommonJS runtime runs it only
 *   under `NODE_OPTIONS=--experimental-vm-modules`, which Tern's `npm test` sets (as for
 *   PGlite); without the flag the error below says so.
 *
 * Loading `@tern/core` never loads jose: only `jwtVerifier`'s first verification (or
 * `app.ready()` of an app enforcing one) does.
 */
import { TernError } from '../errors';

/**
 * A token's claims (RFC 7519), as jose hands them over.
 *
 * @example
 * const payload: JwtPayload = { sub: '42', aud: 'notes-api', exp: 1767225600, roles: ['admin'] };
 */
export interface JwtPayload {
  iss?: string;
  sub?: string;
  aud?: string | string[];
  jti?: string;
  nbf?: number;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

/** A key jose verifies with: a Web Crypto key, a Node `KeyObject` or secret bytes. */
export type JoseKey = object;

/** Picks the key for a token from its protected header (jose's key-resolver signature). */
export type KeyResolver = (protectedHeader: { alg?: string; kid?: string }, token: { payload: string; signature: string }) => Promise<JoseKey>;

/**
 * The part of jose Tern uses, typed here so that Tern's published types never name the package
 * (an ESM-only module's types cannot be imported type-only from CommonJS without TypeScript 5.3+).
 * `loadJose` assigns the real module to it, so the compiler checks the two agree.
 */
export interface JoseModule {
  jwtVerify(
    token: string,
    key: JoseKey | KeyResolver,
    options: { algorithms: string[]; issuer?: string | string[]; audience?: string | string[]; clockTolerance?: number; maxTokenAge?: number; requiredClaims?: string[] },
  ): Promise<{ payload: JwtPayload }>;
  createLocalJWKSet(jwks: { keys: object[] }): KeyResolver;
  readonly errors: { readonly JWKSNoMatchingKey: abstract new (...args: never[]) => Error };
}

let loading: Promise<JoseModule> | undefined;

/**
 * Resolves to jose, importing it once; a failed import is tried again on the next call.
 *
 * @example
 * const { jwtVerify } = await loadJose();
 */
export function loadJose(): Promise<JoseModule> {
  loading ??= importJose().catch((err: unknown) => {
    loading = undefined;
    throw explain(err);
  });
  return loading;
}

async function importJose(): Promise<JoseModule> {
  // Required here, not at the top: loading Tern loads no more than it needs.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { importEsm } = require('./esm-import') as typeof import('./esm-import');
  // The type is the real jose's, so the compiler checks JoseModule against it.
  const jose: JoseModule = await importEsm<typeof import('jose', { with: { 'resolution-mode': 'import' } })>('jose');
  return jose;
}

function explain(err: unknown): Error {
  const { code, message } = (err ?? {}) as { code?: unknown; message?: unknown };
  if (code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG' || /experimental-vm-modules/.test(String(message))) {
    return new TernError(
      'TERN_JWT_LIBRARY_UNAVAILABLE',
      "jwtVerifier loads the ESM-only package 'jose' with import(), which jest's CommonJS runtime allows only with " +
        "NODE_OPTIONS='--experimental-vm-modules' (Tern's own npm test sets it). Plain Node, ts-node and the built package need nothing.",
      { cause: err },
    );
  }
  if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') {
    return new TernError('TERN_JWT_LIBRARY_UNAVAILABLE', "jwtVerifier needs the package 'jose' (a dependency of @tern/core); reinstall: npm install", { cause: err });
  }
  return err instanceof Error ? err : new Error(String(err));
}
