/**
 * A database wired into an app's lifecycle: opened and migrated by `ready()`, closed by
 * `close()` after the last request, with the request's errors answered as such and an optional
 * readiness route.
 */
import type { TernApp } from '@tern/core';
import { databaseOptionsFromEnv, openDatabase, type Database, type DatabaseOptions, type Queryable } from './database';
import { requestError, type UniqueViolationAnswer } from './errors';
import { migrate, type Migration } from './migrations';

/**
 * @example
 * const options: AttachDatabaseOptions = { ...databaseOptionsFromEnv(), migrations: join(__dirname, 'migrations'), readinessPath: '/readyz' };
 */
export interface AttachDatabaseOptions extends DatabaseOptions {
  /** A folder of `.sql` files (or the migrations themselves) applied at start-up. */
  migrations?: string | readonly Migration[];
  /** How a unique violation is answered (default 409); `false` leaves the driver's error (a 500). */
  uniqueViolations?: UniqueViolationAnswer | false;
  /** A route answering 200 while the database answers, else 503 (the handle's `isReady()`). */
  readinessPath?: string;
}

/**
 * Opens the database in an `onStartup` hook (`openDatabase`, named in a failed `ready()`),
 * applies the migrations, and closes it in an `onClose` hook. The handle it returns can be given
 * to services at once; queries wait for nothing but fail before `ready()`.
 *
 * @example
 * const app = new TernApp();
 * const db = attachDatabase(app, { ...databaseOptionsFromEnv(), migrations: join(__dirname, 'migrations'), readinessPath: '/readyz' });
 * app.get('/tags', async () => ({ tags: await db.query('SELECT name FROM tags') }));
 */
export function attachDatabase(app: TernApp, options: AttachDatabaseOptions = databaseOptionsFromEnv()): Database {
  let opened: Database | undefined;
  let closing = false;
  const current = (): Database => {
    if (opened === undefined) throw new Error('The database is opened by app.ready(); no query runs before it.');
    return opened;
  };
  const answer = options.uniqueViolations === false ? undefined : (options.uniqueViolations ?? {});
  const mapped = <T>(work: Promise<T>): Promise<T> =>
    answer === undefined
      ? work
      : work.catch((err: unknown) => {
          throw requestError(err, answer);
        });
  const query: Queryable['query'] = async (sql, params) => mapped(current().query(sql, params));

  app.onStartup(async function openDatabaseAndMigrate() {
    closing = false;
    opened = await openDatabase(options);
    if (options.migrations !== undefined) await migrate(opened, options.migrations);
  });
  app.onClose(async function closeDatabase() {
    closing = true;
    const db = opened;
    opened = undefined;
    await db?.close();
  });

  const handle: Database = {
    get driver() {
      return current().driver;
    },
    query,
    transaction: async (work) => mapped(current().transaction(work)),
    isReady: async (timeoutMs) => !closing && opened !== undefined && opened.isReady(timeoutMs),
    close: async () => {
      closing = true;
      await opened?.close();
      opened = undefined;
    },
  };

  if (options.readinessPath !== undefined) {
    app.get(
      options.readinessPath,
      {
        summary: 'Readiness',
        description: 'Answers 200 while the database answers, 503 otherwise.',
        tags: ['meta'],
        responses: { 200: { status: String, database: String }, 503: { status: String, database: String } },
      },
      async (req, res) => {
        if (await handle.isReady()) return { status: 'ok', database: current().driver };
        return res.json({ status: 'unavailable', database: opened?.driver ?? 'not open' }, 503);
      },
    );
  }
  return handle;
}
