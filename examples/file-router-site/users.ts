/**
 * The site's authors, with scrypt password hashes (never the passwords). A real site keeps them
 * in its database; the checking is the same.
 */
import { randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';

/** Who signed in: what the session keeps (never the password hash). */
export interface SignedIn {
  name: string;
  /** `admin` opens the pages under /admin. */
  roles: string[];
}

interface Author extends SignedIn {
  salt: Buffer;
  hash: Buffer;
}

function author(name: string, password: string, roles: string[] = []): Author {
  const salt = randomBytes(16);
  return { name, roles, salt, hash: scryptSync(password, salt, 32) };
}

/**
 * The demo authors: `ada` / `correct horse battery staple` is an admin, `grace` / `analytical
 * engine notes` an author without the role.
 */
const authors = new Map<string, Author>([
  ['ada', author('Ada', 'correct horse battery staple', ['admin'])],
  ['grace', author('Grace', 'analytical engine notes')],
]);
/** Checked against when the login is unknown, so a wrong login costs as long as a wrong password. */
const nobody = author('nobody', randomBytes(16).toString('hex'));

/**
 * The author's name and roles when `login` and `password` match, else `undefined`.
 *
 * @example
 * checkPassword('ada', 'correct horse battery staple'); // { name: 'Ada', roles: ['admin'] }
 */
export function checkPassword(login: string, password: string): SignedIn | undefined {
  const found = authors.get(login.toLowerCase());
  const { salt, hash } = found ?? nobody;
  const given = scryptSync(password, salt, 32);
  return timingSafeEqual(given, hash) && found ? { name: found.name, roles: [...found.roles] } : undefined;
}

/** How many authors can sign in (the admin page's figure). */
export function authorCount(): number {
  return authors.size;
}
