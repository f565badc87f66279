/**
 * One small interface over two drivers: PGlite (PostgreSQL compiled to WebAssembly, in this
 * process) when no URL is given, node-postgres (`pg`) on a real server when one is. Both are
 * optional peer dependencies, loaded only when used.
 */
import { TEXT_PARSERS } from './result-types';

/** Runs SQL with `$1`-style parameters and resolves to the rows. */
export interface Queryable {
  /**
   * @example
   * const [user] = await db.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [email]);
   */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * A connection (or pool) opened once at start-up and closed on shutdown.
 *
 * @example
 * const db: Database = await openDatabase({});
 * await db.transaction(async (tx) => tx.query('INSERT INTO tags (name) VALUES ($1)', ['tern']));
 */
export interface Database extends Queryable {
  /** Which driver serves it, for logs and readiness answers. */
  readonly driver: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Whether the database answers `SELECT 1` within `timeoutMs` (default 2000): a readiness check. */
  isReady(timeoutMs?: number): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * Where the data lives: a PostgreSQL URL, a PGlite folder, or (neither) PGlite in memory.
 *
 * @example
 * const options: DatabaseOptions = { url: process.env.DATABASE_URL, poolSize: 20 };
 */
export interface DatabaseOptions {
  /** A PostgreSQL connection string: node-postgres is used. */
  url?: string;
  /** A folder PGlite keeps its data in (without `url`); memory when absent. */
  dir?: string;
  /** Connections node-postgres may open (default 10). */
  poolSize?: number;
}

/**
 * The options the environment asks for: `DATABASE_URL`, else `DATABASE_DIR`, else memory.
 *
 * @example
 * const db = await openDatabase(databaseOptionsFromEnv());
 */
export function databaseOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): DatabaseOptions {
  return { url: env.DATABASE_URL || undefined, dir: env.DATABASE_DIR || undefined };
}

/**
 * Opens the database the options name.
 *
 * @example
 * const db = await openDatabase({ dir: './data' });                 // PGlite, kept in ./data
 * const db = await openDatabase({ url: process.env.DATABASE_URL }); // a PostgreSQL server
 */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.url ? openPostgres(options.url, options.poolSize ?? 10) : openPGlite(options.dir);
}

type Rows = { rows: unknown[] };
type Run = (sql: string, params: unknown[]) => Promise<Rows>;

function queryable(run: Run): Queryable {
  return { query: async <Row>(sql: string, params: readonly unknown[] = []) => (await run(sql, [...params])).rows as Row[] };
}

async function readiness(db: Queryable, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([db.query('SELECT 1').then(() => true, () => false), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function openPGlite(dir: string | undefined): Promise<Database> {
  const { PGlite } = requirePeer('@electric-sql/pglite', 'the embedded database (no DATABASE_URL)') as typeof import('@electric-sql/pglite');
  const db = new PGlite(dir, { parsers: TEXT_PARSERS });
  await db.waitReady;
  const run: Run = (sql, params) => db.query(sql, params);
  const self = queryable(run);
  return {
    driver: 'pglite',
    ...self,
    transaction: (work) => db.transaction((tx) => work(queryable((sql, params) => tx.query(sql, params)))),
    isReady: (timeoutMs = 2000) => readiness(self, timeoutMs),
    close: () => db.close(),
  };
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pg = requirePeer('pg', 'DATABASE_URL') as typeof import('pg');
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      (format ?? 'text') === 'text' && TEXT_PARSERS[oid] ? TEXT_PARSERS[oid] : pg.types.getTypeParser(oid, format as 'text')) as never,
  };
  const pool = new pg.Pool({ connectionString: url, max, types });
  // An idle client can fail while nobody is querying (the server restarts); without a listener
  // that error would end the process. The next query reconnects or reports it.
  pool.on('error', () => undefined);
  // A wrong URL or a server that is down fails start-up, not the first request.
  try {
    await pool.query('SELECT 1');
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
  const self = queryable((sql, params) => pool.query(sql, params));
  return {
    driver: 'postgres',
    ...self,
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work(queryable((sql, params) => client.query(sql, params)));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    isReady: (timeoutMs = 2000) => readiness(self, timeoutMs),
    close: () => pool.end(),
  };
}

/** A driver the app did not install is named with the command that installs it. */
function requirePeer(name: string, neededFor: string): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only when used
    return require(name);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
    throw new Error(`@tern/postgres needs ${name} for ${neededFor}: npm install ${name}`);
  }
}
