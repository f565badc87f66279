/**
 * Accounts' secrets: passwords hashed with scrypt (node:crypto, salted, compared in constant
 * time) and JWTs signed with HS256 by `jsonwebtoken`, checked by Tern's `jwtVerifier`.
 * RealWorld clients send `Authorization: Token <jwt>`.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { jwtVerifier, type SecurityVerifier } from '@tern/core';
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

/** Signs the app's tokens with one secret, and makes the verifier that checks them. */
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

  /**
   * A verifier for `enforceSecurity`: a token signed with this secret by HS256 only (no `none`,
   * no other algorithm), unexpired, whose subject is a user id; `toPrincipal` turns the claims
   * into the principal (`null` refuses the token: a deleted account, say).
   */
  verifier<P>(toPrincipal: (claims: TokenClaims) => Promise<P | null>): SecurityVerifier {
    return jwtVerifier({
      secret: this.secret,
      algorithms: ['HS256'],
      toPrincipal: (payload) => {
        const userId = Number(payload.sub);
        return Number.isSafeInteger(userId) ? toPrincipal({ userId }) : null;
      },
    });
  }
}

/** The secret from `JWT_SECRET`, or a random one per process (tokens then die with it). */
export function jwtSecretFromEnv(env: NodeJS.ProcessEnv = process.env): string {
  return env.JWT_SECRET || randomBytes(32).toString('hex');
}
