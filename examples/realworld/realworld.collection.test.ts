/**
 * RealWorld's own Postman collection (api-spec/, run by newman) against the example listening on
 * a real socket, on PGlite and on a PostgreSQL server, so the example cannot drift from the
 * specification. The PostgreSQL run needs `POSTGRES_TEST_URL` (`.ci/run` sets it) and is skipped,
 * saying why, without it. The example's own suite (conduit-suite.ts) stays the detailed one.
 */
import type { TernApp } from '@tern/core';
import { buildApp } from './app';
import type { DatabaseOptions } from './database';
import { runConduitCollection } from './postman-collection';
import { postgresTestDatabase } from './postgres-test-database';

/** How many assertions the vendored collection makes in a run where every request succeeds. */
const COLLECTION_ASSERTIONS = 311;

function collectionPasses(database: () => Promise<DatabaseOptions>, cleanup: () => Promise<void> = async () => undefined): void {
  let app: TernApp;
  let apiUrl: string;

  beforeAll(async () => {
    app = buildApp({ database: await database(), jwtSecret: 'collection-secret-long-enough-for-hs256' });
    apiUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api`;
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await cleanup();
  });

  it(`passes all ${COLLECTION_ASSERTIONS} of the collection's assertions`, async () => {
    const run = await runConduitCollection(apiUrl);
    expect(run.failures).toEqual([]);
    expect({ assertions: run.assertions, failed: run.failedAssertions }).toEqual({ assertions: COLLECTION_ASSERTIONS, failed: 0 });
    expect(run.requests).toBeGreaterThanOrEqual(30);
  }, 300_000);
}

describe("RealWorld's Postman collection on PGlite (in memory)", () => {
  collectionPasses(async () => ({}));
});

describe("RealWorld's Postman collection on a PostgreSQL server", () => {
  const adminUrl = process.env.POSTGRES_TEST_URL;
  if (!adminUrl) {
    it.todo('runs when POSTGRES_TEST_URL names a PostgreSQL server (.ci/run starts one)');
    console.warn("RealWorld's Postman collection on PostgreSQL skipped: POSTGRES_TEST_URL is not set (.ci/run installs and starts PostgreSQL and sets it).");
    return;
  }
  const database = postgresTestDatabase(adminUrl);
  collectionPasses(database.create, database.drop);
});
