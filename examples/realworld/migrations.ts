/**
 * Schema migrations, applied in order at start-up (`app.onStartup`). Each runs in its own
 * transaction and is recorded in `schema_migrations`, so a restart applies only new ones and a
 * failed one leaves nothing half-done. Append new migrations; never edit an applied one.
 */
import type { Database } from './database';

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE users (
     id            serial PRIMARY KEY,
     username      text NOT NULL CONSTRAINT users_username_key UNIQUE,
     email         text NOT NULL CONSTRAINT users_email_key UNIQUE,
     password_hash text NOT NULL,
     bio           text,
     image         text
   );
   CREATE TABLE follows (
     follower_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
     followed_id integer NOT NULL REFERENCES users ON DELETE CASCADE,
     PRIMARY KEY (follower_id, followed_id)
   );
   CREATE TABLE articles (
     id          serial PRIMARY KEY,
     slug        text NOT NULL CONSTRAINT articles_slug_key UNIQUE,
     title       text NOT NULL,
     description text NOT NULL,
     body        text NOT NULL,
     author_id   integer NOT NULL REFERENCES users ON DELETE CASCADE,
     created_at  timestamptz NOT NULL DEFAULT now(),
     updated_at  timestamptz NOT NULL DEFAULT now()
   );
   CREATE INDEX articles_created_at ON articles (created_at DESC, id DESC);
   CREATE TABLE article_tags (
     article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
     tag        text NOT NULL,
     position   integer NOT NULL,
     PRIMARY KEY (article_id, tag)
   );
   CREATE INDEX article_tags_tag ON article_tags (tag);
   CREATE TABLE favorites (
     user_id    integer NOT NULL REFERENCES users ON DELETE CASCADE,
     article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
     PRIMARY KEY (user_id, article_id)
   );
   CREATE TABLE comments (
     id         serial PRIMARY KEY,
     article_id integer NOT NULL REFERENCES articles ON DELETE CASCADE,
     author_id  integer NOT NULL REFERENCES users ON DELETE CASCADE,
     body       text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now(),
     updated_at timestamptz NOT NULL DEFAULT now()
   );`,
];

/** Applies every migration the database has not seen yet; resolves to how many it applied. */
export async function migrate(db: Database): Promise<number> {
  await db.query('CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
  const done = new Set((await db.query<{ version: number }>('SELECT version FROM schema_migrations')).map((row) => row.version));
  let applied = 0;
  for (const [index, sql] of MIGRATIONS.entries()) {
    const version = index + 1;
    if (done.has(version)) continue;
    await db.transaction(async (tx) => {
      for (const statement of splitStatements(sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
    });
    applied++;
  }
  return applied;
}

/** Extended-protocol queries take one statement each; the migrations hold no `;` in literals. */
function splitStatements(sql: string): string[] {
  return sql.split(';').map((statement) => statement.trim()).filter(Boolean);
}
