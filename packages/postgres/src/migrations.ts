/**
 * Schema migrations from a folder: every `.sql` file, applied in name order (`001-users.sql`,
 * `002-articles.sql`), each in its own transaction and recorded in `schema_migrations` by name,
 * so a restart applies only new files and a failed one leaves nothing half-done. Append new
 * files; never edit an applied one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from './database';

/**
 * A migration: its name (recorded once applied) and its SQL (one or more statements).
 *
 * @example
 * const m: Migration = { name: '001-users.sql', sql: 'CREATE TABLE users (id serial PRIMARY KEY)' };
 */
export interface Migration {
  name: string;
  sql: string;
}

/**
 * The `.sql` files of `folder`, in name order.
 *
 * @example
 * const migrations = migrationsFromFolder(join(__dirname, 'migrations'));
 */
export function migrationsFromFolder(folder: string): Migration[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(join(folder, name), 'utf8') }));
}

/**
 * Applies every migration the database has not recorded yet; resolves to the names applied.
 *
 * @example
 * app.onStartup(async function migrateSchema() { await migrate(db, join(__dirname, 'migrations')); });
 */
export async function migrate(db: Database, migrations: string | readonly Migration[]): Promise<string[]> {
  const list = typeof migrations === 'string' ? migrationsFromFolder(migrations) : migrations;
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const done = new Set((await db.query<{ name: string }>('SELECT name FROM schema_migrations')).map((row) => row.name));
  const applied: string[] = [];
  for (const { name, sql } of list) {
    if (done.has(name)) continue;
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (name) VALUES ($1)', [name]);
    });
    applied.push(name);
  }
  return applied;
}

/**
 * Statements one by one (the extended protocol takes one each): split at `;` outside quotes,
 * dollar-quoted bodies and comments.
 *
 * @example
 * splitStatements("CREATE TABLE a (x text DEFAULT ';'); CREATE INDEX ON a (x)"); // two statements
 */
export function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      i = sql.indexOf(c, i + 1);
      if (i === -1) break;
      // A doubled quote inside a literal: keep going.
      while (sql[i + 1] === c) i = sql.indexOf(c, i + 2);
      if (i === -1) break;
    } else if (c === '-' && sql[i + 1] === '-') {
      i = sql.indexOf('\n', i);
      if (i === -1) break;
    } else if (c === '/' && sql[i + 1] === '*') {
      i = sql.indexOf('*/', i + 2);
      if (i === -1) break;
      i++;
    } else if (c === '$') {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag !== undefined) {
        i = sql.indexOf(tag, i + tag.length);
        if (i === -1) break;
        i += tag.length - 1;
      }
    } else if (c === ';') {
      statements.push(sql.slice(start, i));
      start = i + 1;
    }
    i++;
  }
  statements.push(sql.slice(start));
  return statements.map((s) => s.trim()).filter((s) => s.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, '').trim() !== '');
}
