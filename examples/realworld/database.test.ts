/**
 * The database layer on its own: data kept in a PGlite folder survives a restart, migrations
 * apply once, a failed transaction leaves nothing behind, and a database that cannot be opened
 * fails start-up naming the hook.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrate, openDatabase } from '@tern/postgres';
import { buildApp } from './app';

const MIGRATIONS = join(__dirname, 'migrations');

describe('RealWorld database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tern-realworld-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps data in DATABASE_DIR across restarts, applies migrations once, and rolls back failed transactions', async () => {
    const first = await openDatabase({ dir });
    expect(await migrate(first, MIGRATIONS)).toEqual(['001-schema.sql']);
    await first.query("INSERT INTO users (username, email, password_hash) VALUES ('kept', 'kept@example.com', 'x')");
    await expect(
      first.transaction(async (tx) => {
        await tx.query("INSERT INTO users (username, email, password_hash) VALUES ('lost', 'lost@example.com', 'x')");
        await tx.query("INSERT INTO users (username, email, password_hash) VALUES ('kept', 'again@example.com', 'x')"); // unique violation
      }),
    ).rejects.toMatchObject({ code: '23505' });
    await first.close();

    const second = await openDatabase({ dir });
    expect(await migrate(second, MIGRATIONS)).toEqual([]);
    expect(await second.query('SELECT username FROM users ORDER BY id')).toEqual([{ username: 'kept' }]);
    await second.close();
  });

  it('fails ready() naming the start-up hook when the database cannot be opened', async () => {
    const app = buildApp({ database: { url: 'postgres://nobody:nothing@127.0.0.1:1/none' }, jwtSecret: 'x'.repeat(32), logger: false });
    await expect(app.ready()).rejects.toThrow(/onStartup hook 'openDatabaseAndMigrate' \(#1\) failed/);
  });
});
