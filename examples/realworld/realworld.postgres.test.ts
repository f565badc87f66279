/**
 * The same RealWorld suite on a real PostgreSQL server through `pg`, in a database made for this
 * file and dropped after it. `.ci/run` installs and starts PostgreSQL and sets
 * `POSTGRES_TEST_URL` (a role that may create databases); without it the suite is skipped
 * and says why.
 */
import { conduitSuite } from './conduit-suite';
import { postgresTestDatabase } from './postgres-test-database';

const adminUrl = process.env.POSTGRES_TEST_URL;

describe('RealWorld on a PostgreSQL server', () => {
  if (!adminUrl) {
    it.todo('runs when POSTGRES_TEST_URL names a PostgreSQL server (.ci/run starts one)');
    console.warn('RealWorld on PostgreSQL skipped: POSTGRES_TEST_URL is not set (.ci/run installs and starts PostgreSQL and sets it).');
    return;
  }
  const database = postgresTestDatabase(adminUrl);
  conduitSuite(database.create, database.drop);
});
