/**
 * The public keys of a JSON Web Key Set served over HTTP (`jwksUri`), as `jwtVerifier` needs
 * them: fetched once and kept, looked up by `kid`, fetched again when a token names a `kid` the
 * set lacks (key rotation), but never more often than `cooldown`, so a stream of tokens with
 * made-up kids costs the key server one request per cooldown, not one per token.
 *
 * Every fetch is bounded by `timeout` and requests waiting for keys share one fetch, so a key
 * server that hangs or is down answers in bounded time: with keys fetched before, they stay in
 * use (a token they do not cover is refused); with none yet, the request is refused with a
 * `KeyServerUnavailableError` (a 503), and fetches are retried at most once per `min(cooldown,
 * 5 s)` meanwhile.
 *
 * jose's own `createRemoteJWKSet` fetches again on every request while the server is down, each
 * waiting its timeout: hence this small set around jose's `createLocalJWKSet`.
 */
import type { JoseKey, JoseModule, KeyResolver } from './jose';

/**
 * How `jwtVerifier` talks to a key server. Times in milliseconds.
 *
 * @example
 * jwtVerifier({ jwksUri, algorithms: ['RS256'], keyServer: { timeout: 2_000, cooldown: 60_000 } });
 */
export interface KeyServerOptions {
  /** The longest one fetch of the key set may take (default 5000). */
  timeout?: number;
  /** The least time between two fetches for an unknown `kid` (default 30000). */
  cooldown?: number;
  /** Keys older than this are fetched again before use; kept if that fetch fails (default 600000). */
  cacheMaxAge?: number;
}

/** No keys could be had from the key server; `retryAfter` says in how many seconds it is tried again. */
export class KeyServerUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfter: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'KeyServerUnavailableError';
  }
}

/** A key set of jose's `createLocalJWKSet`: picks the key for a token's protected header. */
type LocalKeySet = KeyResolver;
type KeyLookup = Parameters<KeyResolver>;
type Key = JoseKey;

/** A key set larger than this is no key set (a few keys take a few kilobytes). */
const MAX_KEY_SET_BYTES = 1024 * 1024;
const FAILED_FETCH_BACKOFF = 5_000;

/**
 * Keys from `url`, fetched as needed. One per `jwtVerifier`.
 *
 * @example
 * const keys = new RemoteKeySet(new URL('https://issuer.example/.well-known/jwks.json'), {});
 * await jose.jwtVerify(token, (header, token) => keys.keyFor(jose, header, token), { algorithms: ['RS256'] });
 */
export class RemoteKeySet {
  private keys: LocalKeySet | undefined;
  private fetchedAt = -Infinity;
  private failedAt = -Infinity;
  private pending: Promise<void> | undefined;
  private readonly timeout: number;
  private readonly cooldown: number;
  private readonly cacheMaxAge: number;

  constructor(
    private readonly url: URL,
    options: KeyServerOptions,
  ) {
    this.timeout = options.timeout ?? 5_000;
    this.cooldown = options.cooldown ?? 30_000;
    this.cacheMaxAge = options.cacheMaxAge ?? 600_000;
  }

  /** The key for a token (jose's key-resolver signature); a `kid` not in the set is fetched for once per cooldown. */
  async keyFor(jose: JoseModule, ...lookup: KeyLookup): Promise<Key> {
    if (!this.keys || Date.now() - this.fetchedAt > this.cacheMaxAge) await this.refresh(jose);
    const keys = this.keys as LocalKeySet;
    try {
      return await keys(...lookup);
    } catch (err) {
      if (!(err instanceof jose.errors.JWKSNoMatchingKey) || Date.now() - this.fetchedAt < this.cooldown) throw err;
      // Perhaps the issuer rotated its keys since the set was fetched.
      await this.refresh(jose);
      return (this.keys as LocalKeySet)(...lookup);
    }
  }

  /** Fetches the set (one fetch for all callers); keeps the old keys, if any, when it fails. */
  private async refresh(jose: JoseModule): Promise<void> {
    const backoff = Math.min(this.cooldown, FAILED_FETCH_BACKOFF);
    if (Date.now() - this.failedAt < backoff) {
      if (this.keys) return;
      throw new KeyServerUnavailableError(`The key server ${this.url.origin} did not answer; tried again shortly.`, Math.ceil(backoff / 1000) || 1);
    }
    this.pending ??= this.fetchKeys(jose).finally(() => (this.pending = undefined));
    try {
      await this.pending;
    } catch (err) {
      if (this.keys) return;
      throw new KeyServerUnavailableError(`The key set could not be fetched from ${this.url.origin}: ${(err as Error).message}`, Math.ceil(backoff / 1000) || 1, { cause: err });
    }
  }

  private async fetchKeys(jose: JoseModule): Promise<void> {
    try {
      const response = await fetch(this.url, {
        signal: AbortSignal.timeout(this.timeout),
        redirect: 'error',
        headers: { accept: 'application/jwk-set+json, application/json' },
      });
      if (response.status !== 200) throw new Error(`it answered ${response.status}`);
      if (Number(response.headers.get('content-length') ?? 0) > MAX_KEY_SET_BYTES) throw new Error('the key set is larger than 1 MiB');
      const text = await response.text();
      if (text.length > MAX_KEY_SET_BYTES) throw new Error('the key set is larger than 1 MiB');
      this.keys = jose.createLocalJWKSet(JSON.parse(text) as { keys: object[] });
      this.fetchedAt = Date.now();
    } catch (err) {
      this.failedAt = Date.now();
      const reason = (err as Error).name === 'TimeoutError' ? new Error(`no answer within ${this.timeout} ms`, { cause: err }) : err;
      throw reason;
    }
  }
}
