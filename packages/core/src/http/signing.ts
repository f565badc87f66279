import { nodeCrypto } from './node-crypto';

/**
 * The process's fallback secret, used when the app sets none (`MakeConfig({ secret })`): values
 * signed with it are good until the process restarts, and only in this process. Drawn on first
 * use, not when Tern loads (see node-crypto.ts).
 */
let processSecret: string | undefined;

/**
 * The fixed secret `@tern/file-router/dev`'s loop gives the server it restarts
 * (`TERN_DEV_SECRET`), so a form opened before a restart still posts after it. Never read when
 * `NODE_ENV` is `production`, and only in place of a secret the app did not set.
 */
function developmentSecret(): string | undefined {
  if (process.env.NODE_ENV === 'production') return undefined;
  const secret = process.env.TERN_DEV_SECRET;
  return secret !== undefined && secret.length >= 16 ? secret : undefined;
}

/**
 * HMAC-SHA256 keys for signed cookies, one per purpose, so a value signed for one use (a flash
 * message) is never accepted for another (a CSRF token).
 */
export function signingKey(secret: string | undefined, purpose: string): Buffer {
  const key = secret ?? (processSecret ??= developmentSecret() ?? nodeCrypto().randomBytes(32).toString('base64url'));
  return nodeCrypto().createHmac('sha256', key).update(`tern:${purpose}`).digest();
}

/** `value.signature`, both base64url; `value` must not contain a dot. */
export function sign(key: Buffer, value: string): string {
  return `${value}.${nodeCrypto().createHmac('sha256', key).update(value).digest('base64url')}`;
}

/** The value of a signed text when its signature is right, else undefined (compared in constant time). */
export function unsign(key: Buffer, signed: string): string | undefined {
  const dot = signed.lastIndexOf('.');
  if (dot <= 0) return undefined;
  const value = signed.slice(0, dot);
  const given = Buffer.from(signed.slice(dot + 1), 'base64url');
  const expected = nodeCrypto().createHmac('sha256', key).update(value).digest();
  return given.length === expected.length && nodeCrypto().timingSafeEqual(given, expected) ? value : undefined;
}
