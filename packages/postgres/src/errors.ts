/**
 * What the database refuses because of the request, told apart from what is the service's own
 * failure: both drivers report PostgreSQL's SQLSTATE as `code`.
 */
import { HTTPException } from '@tern/core';

/** SQLSTATE of a unique violation. */
const UNIQUE_VIOLATION = '23505';
/** SQLSTATE of text the encoding cannot hold; with UTF-8, a NUL character (U+0000). */
const CHARACTER_NOT_IN_REPERTOIRE = '22021';

/**
 * The constraint a unique violation broke (`users_email_key`), or undefined for any other error.
 *
 * @example
 * try { await db.query(insert, params); } catch (err) { if (uniqueViolation(err) === 'users_email_key') … }
 */
export function uniqueViolation(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === UNIQUE_VIOLATION ? String(constraint ?? '') : undefined;
}

/**
 * Whether the database refused a text value it cannot store (a NUL character), from either driver.
 *
 * @example
 * if (unstorableText(err)) throw new HTTPException(422, 'text must not contain NUL characters');
 */
export function unstorableText(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === CHARACTER_NOT_IN_REPERTOIRE;
}

/**
 * A unique violation answered as the client's conflict (409, or 422 where an API says so), with
 * the constraint kept for code that catches it.
 *
 * @example
 * app.addExceptionHandler(UniqueViolation, async (req, res, exc) => res.json({ taken: exc.constraint }, exc.status));
 */
export class UniqueViolation extends HTTPException {
  constructor(
    status: 409 | 422,
    readonly constraint: string,
    detail: string,
  ) {
    super(status, detail);
    this.name = 'UniqueViolation';
  }
}

/**
 * How unique violations are answered: the status, and a message per constraint (the default
 * names the constraint's column, `email has already been taken` for `users_email_key`).
 *
 * @example
 * const answer: UniqueViolationAnswer = { status: 422, messages: { users_email_key: 'That email is registered.' } };
 */
export interface UniqueViolationAnswer {
  status?: 409 | 422;
  messages?: Readonly<Record<string, string>>;
}

/**
 * The error a query's failure becomes: a {@link UniqueViolation} or, for a NUL character, a 422;
 * any other error as it was (a 500: the service's failure).
 *
 * @example
 * const mapped = requestError(err, { status: 409 });
 */
export function requestError(err: unknown, answer: UniqueViolationAnswer): unknown {
  const constraint = uniqueViolation(err);
  if (constraint !== undefined) {
    const message = answer.messages?.[constraint] ?? `${columnOf(constraint, (err as { table?: unknown }).table)} has already been taken`;
    return new UniqueViolation(answer.status ?? 409, constraint, message);
  }
  if (unstorableText(err)) return new HTTPException(422, 'text must not contain NUL characters (\\u0000)');
  return err;
}

/** `users_email_key` of table `users` → `email`: PostgreSQL's default name for a one-column unique constraint. */
function columnOf(constraint: string, table: unknown): string {
  const prefix = typeof table === 'string' ? `${table}_` : undefined;
  if (prefix !== undefined && constraint.startsWith(prefix) && constraint.endsWith('_key')) return constraint.slice(prefix.length, -'_key'.length);
  return constraint || 'value';
}
