/**
 * The database behind the RealWorld example: one small interface over two drivers.
 *
 * - **PGlite** (Postgres compiled to WebAssembly, in this process) is the default, so
 *   `npm run start:realworld` needs no server. `DATABASE_DIR` keeps its data in a folder; without
 *   it the data lives in memory and is gone when the process ends.
 * - **node-postgres** (`pg`) runs the same SQL on a real PostgreSQL server when `DATABASE_URL` is
 *   set. That is the way to scale out: an embedded database belongs to one process.
 *
 * Controllers never see a driver: they get a `Database` through their constructors.
 */
import { PGlite } from '@electric-sql/pglite';
import { Pool, type PoolClient } from 'pg';

/** Runs SQL with `$1`-style parameters and resolves to the rows. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/** A connection (or pool) the app opens once at start-up and closes on shutdown. */
export interface Database extends Queryable {
  /** Which driver serves it, for logs and `/readyz`. */
  readonly driver: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Where the data lives: a PostgreSQL URL, a PGlite folder, or (neither) PGlite in memory. */
export interface DatabaseOptions {
  url?: string;
  dir?: string;
}

/** The options the environment asks for: `DATABASE_URL`, else `DATABASE_DIR`, else memory. */
export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  return { url: env.DATABASE_URL || undefined, dir: env.DATABASE_DIR || undefined };
}

/**
 * Opens the database the options name.
 *
 * @example
 * const db = await openDatabase({ dir: './data' });            // PGlite, kept in ./data
 * const db = await openDatabase({ url: process.env.DATABASE_URL }); // a PostgreSQL server
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  if (options.url) {
    const pool = new Pool({ connectionString: options.url, max: 10 });
    // A pool's idle client can fail while nobody is querying (the server restarts); without a
    // listener that error would end the process.
    pool.on('error', () => undefined);
    return new PostgresDatabase(pool);
  }
  const db = new PGlite(options.dir);
  await db.waitReady;
  return new PGliteDatabase(db);
}

class PGliteDatabase implements Database {
  readonly driver = 'pglite';

  constructor(private readonly db: PGlite) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.db.query<Row>(sql, params as unknown[])).rows;
  }

  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work({ query: async <Row>(sql: string, params: readonly unknown[] = []) => (await tx.query<Row>(sql, params as unknown[])).rows }),
    );
  }

  close(): Promise<void> {
    return this.db.close();
  }
}

class PostgresDatabase implements Database {
  readonly driver = 'postgres';

  constructor(private readonly pool: Pool) {}

  async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params as unknown[])).rows as Row[];
  }

  async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
    const client: PoolClient = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work({ query: async <Row>(sql: string, params: readonly unknown[] = []) => (await client.query(sql, params as unknown[])).rows as Row[] });
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}

/** Postgres's SQLSTATE for a unique violation, the same from both drivers. */
const UNIQUE_VIOLATION = '23505';

/** The constraint a unique violation broke, or undefined for any other error. */
export function uniqueViolation(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, constraint } = err as { code?: unknown; constraint?: unknown };
  return code === UNIQUE_VIOLATION ? String(constraint ?? '') : undefined;
}

/**
 * Postgres's SQLSTATE for text the database's encoding cannot hold; with UTF-8, that is a NUL
 * character (U+0000), which JSON (`\u0000`), a query string or a path (`%00`) can all carry.
 */
const CHARACTER_NOT_IN_REPERTOIRE = '22021';

/** Whether the database refused a text value it cannot store (a NUL character), from either driver. */
export function unstorableText(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === CHARACTER_NOT_IN_REPERTOIRE;
}
