/**
 * Accounts' secrets: passwords hashed with scrypt (node:crypto, salted, compared in constant
 * time) and JWTs signed with HS256 by `jsonwebtoken`. RealWorld clients send
 * `Authorization: Token <jwt>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import jwt from 'jsonwebtoken';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number) => Promise<Buffer>;
const KEY_LENGTH = 32;

/** `scrypt$<salt>$<key>`, both base64: what the `users.password_hash` column holds. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, KEY_LENGTH);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Whether `password` is the one `stored` was made from. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password nobody knows, made once with the same salt and key sizes as
 * `hashPassword`: signing in with an unknown email checks the password against it, so the answer
 * costs one scrypt either way and its timing does not tell which emails have accounts.
 */
export const DUMMY_PASSWORD_HASH = 'scrypt$LjCkJsM9I7YkoM+Bu90Wqg==$Pm9oI8wE9PFwolK5L8Pf7lwjsbRhueJnsY/JZOIX9yw=';

/** What a token says: whose it is. */
export interface TokenClaims {
  userId: number;
}

/** Signs and checks the app's tokens with one secret. */
export class Tokens {
  constructor(
    private readonly secret: string,
    private readonly expiresIn: jwt.SignOptions['expiresIn'] = '30d',
  ) {
    if (secret.length < 32) throw new Error('JWT secret must be at least 32 characters');
  }

  sign(claims: TokenClaims): string {
    return jwt.sign({}, this.secret, { algorithm: 'HS256', subject: String(claims.userId), expiresIn: this.expiresIn });
  }

  /** The claims of a valid, unexpired token; null for anything else. */
  verify(token: string): TokenClaims | null {
    try {
      const payload = jwt.verify(token, this.secret, { algorithms: ['HS256'] });
      const userId = typeof payload === 'object' ? Number(payload.sub) : NaN;
      return Number.isSafeInteger(userId) ? { userId } : null;
    } catch {
      return null;
    }
  }
}

/** The secret from `JWT_SECRET`, or a random one per process (tokens then die with it). */
export function jwtSecretFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.JWT_SECRET || randomBytes(32).toString('hex');
}
