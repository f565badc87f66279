/**
 * A PostgreSQL database made for one test file and dropped after it, on the server
 * `POSTGRES_TEST_URL` names (a role that may create databases; `.ci/run` starts the server and
 * sets it). Test files that need it skip, saying why, when the variable is unset.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { DatabaseOptions } from './database';

export interface TestDatabase {
  /** Creates the database and answers the options that open it. */
  create(): Promise<DatabaseOptions>;
  /** Drops it, closing whatever connections are left. */
  drop(): Promise<void>;
}

/**
 * @example
 * const db = postgresTestDatabase(process.env.POSTGRES_TEST_URL!);
 * const app = buildApp({ database: await db.create() });
 * // … afterAll: await app.close(); await db.drop();
 */
export function postgresTestDatabase(adminUrl: string): TestDatabase {
  const name = `realworld_test_${randomBytes(4).toString('hex')}`;
  async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }
  return {
    async create() {
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { url: url.toString() };
    },
    drop: () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  };
}
