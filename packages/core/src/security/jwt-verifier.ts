/**
 * `jwtVerifier`: a verifier for `enforceSecurity` that checks JSON Web Tokens with jose, so no
 * team writes its own JWT checks.
 */
import type { JsonWebKey, KeyObject } from 'node:crypto';
import { TernTypeError } from '../errors';
import { requestError } from '../errors/request-error';
import type { TernRequest } from '../http/request';
import { nodeCrypto } from '../http/node-crypto';
import { loadJose, type JoseKey, type JoseModule, type JwtPayload, type KeyResolver } from './jose';
import { KeyServerUnavailableError, RemoteKeySet, type KeyServerOptions } from './key-server';

/** The algorithms `jwtVerifier` accepts in its allow-list (`none` never). */
export type JwtAlgorithm = 'HS256' | 'HS384' | 'HS512' | 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA' | 'Ed25519';

export type { JwtPayload } from './jose';

/**
 * Options of {@link jwtVerifier}: exactly one of `secret`, `publicKey` and `jwksUri`.
 *
 * @example
 * const options: JwtVerifierOptions = { jwksUri: 'https://issuer.example/.well-known/jwks.json', algorithms: ['RS256'], audience: 'api' };
 */
export interface JwtVerifierOptions<P = JwtPayload> {
  /** The shared secret of HMAC tokens (HS256/384/512), at least 32 bytes. */
  secret?: string | Uint8Array;
  /** The issuer's public key: PEM text (a public key or certificate), a `KeyObject`, or a public JWK. */
  publicKey?: string | KeyObject | JsonWebKey;
  /** Where the issuer publishes its JSON Web Key Set (https; http only on loopback). */
  jwksUri?: string | URL;
  /** The only algorithms a token may be signed with (required): HMAC ones with `secret` only, the others with a public key. */
  algorithms: readonly JwtAlgorithm[];
  /** The `iss` a token must carry (one of them, for a list). */
  issuer?: string | readonly string[];
  /** An `aud` a token must carry (one of them, for a list). */
  audience?: string | readonly string[];
  /** Seconds of clock difference allowed when checking `exp`, `nbf` and `iat` (default 0). */
  clockTolerance?: number;
  /** Tokens issued (`iat`) longer ago than this many seconds are refused; tokens then need `iat`. */
  maxAge?: number;
  /** The principal (`req.user`) for a verified token; default the payload. `null`/`undefined` refuses the token. */
  toPrincipal?: (payload: JwtPayload, req: TernRequest) => P | null | undefined | Promise<P | null | undefined>;
  /** How keys are fetched from `jwksUri`. */
  keyServer?: KeyServerOptions;
}

/** What `enforceSecurity` reads of a verifier made by `jwtVerifier`: how to load it and OAuth2 grants. */
export interface JwtVerifierParts {
  /** Loads jose; `enforceSecurity` calls it in `app.ready()`, so a failure to load fails the start. */
  prepare(): Promise<void>;
  /** Keys come from `jwksUri`: a key server that is down can make a request answer 503, which the document then lists. */
  readonly usesKeyServer: boolean;
  /** For OAuth2 schemes: the principal and the token's scopes (`scope`, or `scp`), or `null`. */
  grant(credential: string, req: TernRequest): Promise<{ user: unknown; scopes: string[] } | null>;
}

const parts = new WeakMap<Function, JwtVerifierParts>();

/** The parts of a verifier `jwtVerifier` made, or `undefined` for any other function. */
export function jwtVerifierParts(verifier: Function): JwtVerifierParts | undefined {
  return parts.get(verifier);
}

const HMAC = new Set<string>(['HS256', 'HS384', 'HS512']);
const ALGORITHMS = new Set<string>([...HMAC, 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519']);
/** The key types each asymmetric algorithm verifies with (and the curve of EC ones). */
const KEY_TYPES: Record<string, { types: string[]; curve?: string }> = {
  RS256: { types: ['rsa'] },
  RS384: { types: ['rsa'] },
  RS512: { types: ['rsa'] },
  PS256: { types: ['rsa', 'rsa-pss'] },
  PS384: { types: ['rsa', 'rsa-pss'] },
  PS512: { types: ['rsa', 'rsa-pss'] },
  ES256: { types: ['ec'], curve: 'prime256v1' },
  ES384: { types: ['ec'], curve: 'secp384r1' },
  ES512: { types: ['ec'], curve: 'secp521r1' },
  EdDSA: { types: ['ed25519', 'ed448'] },
  Ed25519: { types: ['ed25519'] },
};
const MIN_SECRET_BYTES = 32;

/**
 * A verifier for `enforceSecurity` that accepts a JSON Web Token only when:
 * - it is signed with one of `algorithms` (required; `none` is never accepted) by the key:
 *   `secret` for HMAC, `publicKey`, or the key of the token's `kid` in the set at `jwksUri`;
 *   a public key is never used as an HMAC secret (key confusion), since HMAC algorithms are
 *   allowed only beside `secret`;
 * - it has not expired (`exp` is required), is not used before `nbf`, and carries the `issuer`
 *   and `audience` given, within `clockTolerance` seconds; and was issued (`iat`) at most
 *   `maxAge` seconds ago, when given.
 *
 * It resolves to the token's payload (or what `toPrincipal` makes of it), which becomes
 * `req.user`; for an OAuth2 scheme, to the grant `{ user, scopes }` with the token's `scope`
 * (or `scp`) claim. Any other token is refused: a 401 with `error="invalid_token"`.
 *
 * Keys from `jwksUri` are fetched on the first token and kept, fetched again for an unknown
 * `kid` at most once per `keyServer.cooldown` (30 s). A key server that is down or slower than
 * `keyServer.timeout` (5 s) never holds a request longer: with no keys fetched yet, the answer
 * is a 503 (`TERN_KEY_SERVER_UNAVAILABLE`) with `Retry-After`.
 *
 * jose, which does the cryptography, is ESM-only and loaded on first use (docs/security.md
 * says how it loads under jest).
 *
 * @example
 * app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
 * app.addMiddleware(enforceSecurity(app, {
 *   bearerAuth: jwtVerifier({ jwksUri: 'https://issuer.example/.well-known/jwks.json', algorithms: ['RS256'], issuer: 'https://issuer.example/', audience: 'notes-api' }),
 * }));
 */
export function jwtVerifier<P = JwtPayload>(options: JwtVerifierOptions<P>): (credential: string, req: TernRequest) => Promise<P | JwtPayload | null | undefined> {
  const checked = checkOptions(options);
  const key = keyOf(options, checked.algorithms);
  const verifyOptions = {
    algorithms: checked.algorithms,
    issuer: options.issuer as string | string[] | undefined,
    audience: options.audience as string | string[] | undefined,
    clockTolerance: options.clockTolerance,
    maxTokenAge: options.maxAge,
    requiredClaims: ['exp'],
  };

  const payloadOf = async (token: string): Promise<JwtPayload | null> => {
    const jose = await loadJose();
    try {
      const { payload } = await jose.jwtVerify(token, key(jose), verifyOptions);
      return payload;
    } catch (err) {
      if (err instanceof KeyServerUnavailableError) {
        throw requestError('TERN_KEY_SERVER_UNAVAILABLE', 'The keys that sign tokens cannot be fetched now; try again later.', { headers: { 'retry-after': String(err.retryAfter) } });
      }
      // jose refuses a bad token with one of its errors; whatever else a hostile token makes it
      // throw is a refusal too, never a 500.
      return null;
    }
  };
  const principalOf = async (payload: JwtPayload, req: TernRequest) => (options.toPrincipal ? options.toPrincipal(payload, req) : payload);

  const verify = async (credential: string, req: TernRequest) => {
    const payload = await payloadOf(credential);
    return payload ? principalOf(payload, req) : null;
  };
  parts.set(verify, {
    usesKeyServer: options.jwksUri !== undefined,
    prepare: async () => {
      await loadJose();
    },
    grant: async (credential, req) => {
      const payload = await payloadOf(credential);
      if (!payload) return null;
      const user = await principalOf(payload, req);
      return user === null || user === undefined ? null : { user, scopes: scopesOf(payload) };
    },
  });
  return verify;
}

/** The options checked when the verifier is made, and the allow-list. */
function checkOptions(options: JwtVerifierOptions<unknown>): { algorithms: string[] } {
  if (options === null || typeof options !== 'object') throw invalid('jwtVerifier(options): pass { secret | publicKey | jwksUri, algorithms }.');
  const sources = (['secret', 'publicKey', 'jwksUri'] as const).filter((name) => options[name] !== undefined);
  if (sources.length !== 1) {
    throw invalid(`jwtVerifier: give exactly one of secret, publicKey and jwksUri (got ${sources.length ? sources.join(', ') : 'none'}).`);
  }
  const { algorithms } = options;
  if (!Array.isArray(algorithms) || algorithms.length === 0) {
    throw invalid("jwtVerifier: 'algorithms' is required: the algorithms your issuer signs with, e.g. ['RS256'] (a token chooses its own alg, so the list is what keeps 'none' and forged algorithms out).");
  }
  for (const alg of algorithms) {
    if (!ALGORITHMS.has(alg)) throw invalid(`jwtVerifier: algorithm '${String(alg)}' is not accepted (use ${[...ALGORITHMS].join(', ')}).`);
    const hmac = HMAC.has(alg);
    if (hmac !== (sources[0] === 'secret')) {
      throw invalid(
        hmac
          ? `jwtVerifier: ${alg} needs 'secret'; with a public key it would let anyone who knows the public key sign tokens (key confusion).`
          : `jwtVerifier: ${alg} is verified with a public key ('publicKey' or 'jwksUri'), not 'secret'.`,
      );
    }
  }
  for (const name of ['clockTolerance', 'maxAge'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) throw invalid(`jwtVerifier: '${name}' is a number of seconds, 0 or more.`);
  }
  for (const name of ['issuer', 'audience'] as const) {
    const value = options[name];
    if (value !== undefined && !(typeof value === 'string' && value) && !(Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'string' && v))) {
      throw invalid(`jwtVerifier: '${name}' is a string or a non-empty list of strings.`);
    }
  }
  if (options.toPrincipal !== undefined && typeof options.toPrincipal !== 'function') throw invalid("jwtVerifier: 'toPrincipal' is a function (payload, req) => principal.");
  return { algorithms: [...algorithms] };
}

/** The key jose verifies with, by source; each checked at once against the allow-list. */
function keyOf(options: JwtVerifierOptions<unknown>, algorithms: string[]): (jose: JoseModule) => JoseKey | KeyResolver {
  if (options.secret !== undefined) {
    const secret = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
    if (!(secret instanceof Uint8Array)) throw invalid("jwtVerifier: 'secret' is a string or a Uint8Array.");
    if (secret.length < MIN_SECRET_BYTES) throw invalid(`jwtVerifier: 'secret' has ${secret.length} bytes; HMAC secrets need at least ${MIN_SECRET_BYTES} random bytes to resist guessing.`);
    const copy = Uint8Array.from(secret);
    return () => copy;
  }
  if (options.publicKey !== undefined) {
    const key = publicKeyOf(options.publicKey);
    for (const alg of algorithms) {
      const { types, curve } = KEY_TYPES[alg];
      const type = key.asymmetricKeyType ?? '';
      if (!types.includes(type) || (curve && key.asymmetricKeyDetails?.namedCurve !== curve)) {
        throw invalid(`jwtVerifier: the public key (${type}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ''}) cannot verify ${alg}.`);
      }
    }
    return () => key;
  }
  const url = keyServerUrl(options.jwksUri as string | URL);
  const keys = new RemoteKeySet(url, checkKeyServer(options.keyServer));
  return (jose) => (header, token) => keys.keyFor(jose, header, token);
}

function publicKeyOf(given: string | KeyObject | JsonWebKey): KeyObject {
  const crypto = nodeCrypto();
  let key: KeyObject;
  try {
    if (given instanceof crypto.KeyObject) {
      if (given.type === 'secret') throw new Error('a secret key is no public key; pass it as `secret`');
      key = given.type === 'private' ? crypto.createPublicKey(given) : given;
    } else if (typeof given === 'string') {
      key = crypto.createPublicKey(given);
    } else if (given !== null && typeof given === 'object') {
      if ((given as JsonWebKey).kty === 'oct') throw new Error('a symmetric JWK is no public key; pass it as `secret`');
      key = crypto.createPublicKey({ key: given as JsonWebKey, format: 'jwk' });
    } else {
      throw new Error('expected PEM text, a KeyObject or a JWK');
    }
  } catch (err) {
    throw invalid(`jwtVerifier: 'publicKey' is not a public key: ${(err as Error).message}.`);
  }
  return key;
}

function keyServerUrl(given: string | URL): URL {
  let url: URL;
  try {
    url = new URL(String(given));
  } catch {
    throw invalid(`jwtVerifier: 'jwksUri' is not a URL: ${String(given)}.`);
  }
  const loopback = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw invalid(`jwtVerifier: 'jwksUri' must be https (http only on loopback): ${url.href}; over plain http anyone on the way could hand you their keys.`);
  }
  return url;
}

function checkKeyServer(options: KeyServerOptions | undefined): KeyServerOptions {
  const out = options ?? {};
  for (const name of ['timeout', 'cooldown', 'cacheMaxAge'] as const) {
    const value = out[name];
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) throw invalid(`jwtVerifier: keyServer.${name} is a whole number of milliseconds, 0 or more.`);
  }
  if (out.timeout === 0) throw invalid('jwtVerifier: keyServer.timeout must be more than 0.');
  return out;
}

/** OAuth2 access tokens list their scopes in `scope` (RFC 9068, space-separated) or `scp`. */
function scopesOf(payload: JwtPayload): string[] {
  const claim = payload.scope ?? payload.scp;
  if (typeof claim === 'string') return claim.split(' ').filter(Boolean);
  return Array.isArray(claim) ? claim.filter((s): s is string => typeof s === 'string') : [];
}

function invalid(message: string): TernTypeError {
  return new TernTypeError('TERN_INVALID_JWT_OPTIONS', message);
}
