/**
 * @tern/postgres as an app uses it, on PGlite always and on a real PostgreSQL server through
 * `pg` when POSTGRES_TEST_URL names one (`.ci/run` starts it; without it that half is skipped
 * and says why): the same answers from both drivers.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { TernApp } from '@tern/core';
import { attachDatabase, migrate, openDatabase, splitStatements, UniqueViolation, type DatabaseOptions } from '@tern/postgres';

const adminUrl = process.env.POSTGRES_TEST_URL;

/** A database made for one describe block: PGlite in memory, or a fresh database on the server. */
interface Target {
  name: string;
  create(): Promise<DatabaseOptions>;
  drop(): Promise<void>;
}

function serverTarget(url: string): Target {
  const name = `tern_postgres_test_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    name: 'node-postgres',
    async create() {
      await admin(`CREATE DATABASE ${name}`);
      const target = new URL(url);
      target.pathname = `/${name}`;
      return { url: target.toString() };
    },
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

function pgliteTarget(): Target {
  const dir = mkdtempSync(join(tmpdir(), 'tern-pglite-'));
  return { name: 'PGlite', create: async () => ({ dir }), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

const targets: Target[] = [pgliteTarget()];
if (adminUrl) targets.push(serverTarget(adminUrl));
else console.warn('@tern/postgres on a PostgreSQL server skipped: POSTGRES_TEST_URL is not set (.ci/run starts PostgreSQL and sets it).');

const migrations = mkdtempSync(join(tmpdir(), 'tern-migrations-'));
writeFileSync(
  join(migrations, '001-users.sql'),
  `-- users; a ';' in a comment is no statement end
   CREATE TABLE users (id serial PRIMARY KEY, email text NOT NULL CONSTRAINT users_email_key UNIQUE, note text DEFAULT 'a; b');
   CREATE FUNCTION shout(t text) RETURNS text AS $$ SELECT upper(t) || '!;' $$ LANGUAGE sql;`,
);
writeFileSync(join(migrations, '002-seen.sql'), 'ALTER TABLE users ADD COLUMN seen date');
writeFileSync(join(migrations, 'README.md'), 'not a migration');
afterAll(() => rmSync(migrations, { recursive: true, force: true }));

describe.each(targets)('@tern/postgres on $name', (target) => {
  let options: DatabaseOptions;
  beforeAll(async () => {
    options = await target.create();
  });
  afterAll(() => target.drop());

  it('applies a folder of migrations once each, in name order, each in a transaction', async () => {
    const db = await openDatabase(options);
    try {
      expect(await migrate(db, migrations)).toEqual(['001-users.sql', '002-seen.sql']);
      expect(await migrate(db, migrations)).toEqual([]);
      expect(await db.query('SELECT shout($1) AS s', ['hi'])).toEqual([{ s: 'HI!;' }]);
      // A failing migration leaves nothing of itself and is not recorded.
      const bad = [{ name: '003-bad.sql', sql: 'CREATE TABLE half (id int); SELECT nonsense FROM nowhere' }];
      await expect(migrate(db, bad)).rejects.toThrow(/nowhere/);
      expect(await db.query("SELECT to_regclass('half') AS t")).toEqual([{ t: null }]);
      expect((await db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name')).map((r) => r.name)).toEqual(['001-users.sql', '002-seen.sql']);
    } finally {
      await db.close();
    }
  });

  it('gives the same result types from both drivers: int8 and count(*) as numbers, dates as days', async () => {
    const db = await openDatabase(options);
    try {
      await db.query('DELETE FROM users');
      for (const email of ['a@x', 'b@x', 'c@x']) await db.query("INSERT INTO users (email, seen) VALUES ($1, '2024-02-29')", [email]);
      expect(await db.query('SELECT count(*) AS n FROM users')).toEqual([{ n: 3 }]);
      expect(await db.query("SELECT 9007199254740993::int8 AS big, '{1,NULL,3}'::int8[] AS list, 1.50::numeric AS exact")).toEqual([
        { big: '9007199254740993', list: [1, null, 3], exact: '1.50' },
      ]);
      expect(await db.query('SELECT DISTINCT seen FROM users')).toEqual([{ seen: '2024-02-29' }]);
    } finally {
      await db.close();
    }
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    const db = await openDatabase(options);
    try {
      await db.query('DELETE FROM users');
      await db.transaction(async (tx) => tx.query("INSERT INTO users (email) VALUES ('kept@x')"));
      await expect(
        db.transaction(async (tx) => {
          await tx.query("INSERT INTO users (email) VALUES ('lost@x')");
          await tx.query("INSERT INTO users (email) VALUES ('kept@x')");
        }),
      ).rejects.toMatchObject({ code: '23505' });
      expect(await db.query('SELECT email FROM users')).toEqual([{ email: 'kept@x' }]);
    } finally {
      await db.close();
    }
  });

  describe('attached to an app', () => {
    let app: TernApp;
    beforeAll(async () => {
      app = new TernApp({ logger: false });
      const db = attachDatabase(app, { ...options, migrations, readinessPath: '/readyz' });
      app.post('/users/{email}', { statusCode: 201 }, async (req, res, { email }) => (await db.query('INSERT INTO users (email) VALUES ($1) RETURNING id', [email]))[0]);
      app.get('/users/count', { responses: { 200: { count: Number } } }, async () => (await db.query<{ count: number }>('SELECT count(*) FROM users'))[0]);
      app.get('/unique-violation', async () => {
        try {
          await db.transaction(async (tx) => {
            await tx.query("INSERT INTO users (email) VALUES ('twice@x')");
            await tx.query("INSERT INTO users (email) VALUES ('twice@x')");
          });
          return { caught: null };
        } catch (err) {
          return { caught: err instanceof UniqueViolation ? err.constraint : String(err) };
        }
      });
      await app.ready();
    });
    afterAll(() => app.close());

    it('answers a unique violation 409 naming the column, and counts as a number', async () => {
      await app.inject({ method: 'DELETE', url: '/nothing' });
      expect((await app.inject({ method: 'POST', url: '/users/ada@x' })).statusCode).toBe(201);
      const again = await app.inject({ method: 'POST', url: '/users/ada@x' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ status: 409, detail: 'email has already been taken' });
      const count = await app.inject('/users/count');
      expect(count.body).toMatch(/^\{"count":\d+\}$/);
      expect((await app.inject('/unique-violation')).json()).toEqual({ caught: 'users_email_key' });
    });

    it('answers the readiness route 200 while the database answers, 503 once it is closed', async () => {
      expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok', database: target.name === 'PGlite' ? 'pglite' : 'postgres' });
      const probe = new TernApp({ logger: false });
      const db = attachDatabase(probe, { ...options, readinessPath: '/readyz' });
      await probe.ready();
      expect(await db.isReady()).toBe(true);
      await probe.close();
      expect(await db.isReady()).toBe(false);
      await expect(db.query('SELECT 1')).rejects.toThrow('The database is opened by app.ready()');
    });
  });
});

describe('unique violations answered 422 with messages of the app', () => {
  it('uses the status and message given', async () => {
    const app = new TernApp({ logger: false });
    const db = attachDatabase(app, { migrations, uniqueViolations: { status: 422, messages: { users_email_key: 'That email is registered.' } } });
    app.post('/users/{email}', async (req, res, { email }) => db.query('INSERT INTO users (email) VALUES ($1)', [email]));
    await app.ready();
    try {
      await app.inject({ method: 'POST', url: '/users/x@y' });
      const again = await app.inject({ method: 'POST', url: '/users/x@y' });
      expect(again.statusCode).toBe(422);
      expect(again.json().detail).toBe('That email is registered.');
    } finally {
      await app.close();
    }
  });

  it('fails ready() naming its hook when the server cannot be reached', async () => {
    const app = new TernApp({ logger: false });
    attachDatabase(app, { url: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    await expect(app.ready()).rejects.toThrow(/onStartup hook 'openDatabaseAndMigrate' \(#1\) failed/);
  });
});

describe('splitStatements', () => {
  it('splits at semicolons outside literals, quoted names, dollar quotes and comments', () => {
    expect(splitStatements(`SELECT ';' AS "a;b"; /* ; */ SELECT $x$ ; $x$; -- ;\nSELECT 'it''s;'`)).toEqual([
      `SELECT ';' AS "a;b"`,
      '/* ; */ SELECT $x$ ; $x$',
      "-- ;\nSELECT 'it''s;'",
    ]);
  });
});
