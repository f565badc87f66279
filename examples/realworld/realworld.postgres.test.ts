/**
 * The same RealWorld suite on a real PostgreSQL server through `pg`, in a database made for this
 * file and dropped after it. `.ci/run` installs and starts PostgreSQL and sets
 * `POSTGRES_TEST_URL` (a role that may create databases); without it the suite is skipped
 * and says why.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { conduitSuite } from './conduit-suite';

const adminUrl = process.env.POSTGRES_TEST_URL;

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('RealWorld on a PostgreSQL server', () => {
  if (!adminUrl) {
    it.todo('runs when POSTGRES_TEST_URL names a PostgreSQL server (.ci/run starts one)');
    console.warn('RealWorld on PostgreSQL skipped: POSTGRES_TEST_URL is not set (.ci/run installs and starts PostgreSQL and sets it).');
    return;
  }
  const name = `realworld_test_${randomBytes(4).toString('hex')}`;
  conduitSuite(
    async () => {
      await admin((client) => client.query(`CREATE DATABASE ${name}`));
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return { url: url.toString() };
    },
    () => admin(async (client) => void (await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))),
  );
});
