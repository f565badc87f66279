/**
 * The site's authors, with scrypt password hashes (never the passwords). A real site keeps them
 * in its database; the checking is the same.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

interface Author {
  name: string;
  salt: Buffer;
  hash: Buffer;
}

function author(name: string, password: string): Author {
  const salt = randomBytes(16);
  return { name, salt, hash: scryptSync(password, salt, 32) };
}

/** The demo author: sign in as `ada` with `correct horse battery staple`. */
const authors = new Map<string, Author>([['ada', author('Ada', 'correct horse battery staple')]]);
/** Checked against when the login is unknown, so a wrong login costs as long as a wrong password. */
const nobody = author('nobody', randomBytes(16).toString('hex'));

/**
 * The author's display name when `login` and `password` match, else `undefined`.
 *
 * @example
 * checkPassword('ada', 'correct horse battery staple'); // 'Ada'
 */
export function checkPassword(login: string, password: string): string | undefined {
  const found = authors.get(login.toLowerCase());
  const { salt, hash } = found ?? nobody;
  const given = scryptSync(password, salt, 32);
  return timingSafeEqual(given, hash) && found ? found.name : undefined;
}
