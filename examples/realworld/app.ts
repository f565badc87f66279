/**
 * The RealWorld "Conduit" API (https://realworld-docs.netlify.app) on Tern: users with JWTs,
 * profiles and follows, articles with slugs, tags and favorites, comments, a feed, paging, all
 * under `/api` and stored in Postgres: PGlite in this process by default, a PostgreSQL server
 * when `DATABASE_URL` is set. Run it with `npm run start:realworld`.
 */
import 'reflect-metadata';
import { TernApp, type ErrorLogger } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';
import { jwtSecretFromEnv, Tokens } from './auth';
import { Conduit, unprocessable } from './conduit';
import { ArticlesController } from './controllers/articles.controller';
import { CommentsController } from './controllers/comments.controller';
import { ProfilesController } from './controllers/profiles.controller';
import { TagsController } from './controllers/tags.controller';
import { UsersController } from './controllers/users.controller';
import { openDatabase, unstorableText, type Database, type DatabaseOptions } from './database';
import { GenericErrorModel } from './dto';
import { realWorldErrors } from './errors';
import { migrate } from './migrations';
import { tokenSecurity } from './security';

/** Where the API is served: RealWorld clients expect `/api`. */
export const API_PREFIX = '/api';

export interface RealWorldOptions {
  /** Where the data lives (default: PGlite in memory). Tests pass `{}` for a fresh database. */
  database?: DatabaseOptions;
  /** The HS256 secret tokens are signed with, 32 characters or more (default: random per process). */
  jwtSecret?: string;
  /** Where unexpected errors go (default `console`); tests pass `false`. */
  logger?: ErrorLogger;
}

/** A database opened by the app's start-up and closed by its shutdown. */
class DatabaseSlot {
  private current?: Database;

  get db(): Database {
    if (!this.current) throw new Error('The database is opened by app.ready(); no request is served before it.');
    return this.current;
  }

  set db(db: Database) {
    this.current = db;
  }

  get opened(): Database | undefined {
    return this.current;
  }
}

/**
 * Every value a client sends (a path segment, a query parameter, a JSON string) reaches SQL as a
 * parameter; PostgreSQL refuses text holding a NUL character. That refusal is the client's
 * mistake, answered here once for every query as the spec's 422 instead of a 500.
 */
function refuseUnstorableText<T>(query: Promise<T>): Promise<T> {
  return query.catch((err: unknown) => {
    throw unstorableText(err) ? unprocessable('text must not contain NUL characters (\\u0000)') : err;
  });
}

/**
 * Builds the app; nothing is opened until `ready()`/`listen()`, whose start-up hook opens the
 * database and applies the migrations (a failure fails `listen()` naming the hook), and
 * `close()` closes it after the last request.
 *
 * @example
 * const app = buildApp({ database: { dir: './data' }, jwtSecret: process.env.JWT_SECRET! });
 * await app.listen({ port: 3003 });
 */
export function buildApp(options: RealWorldOptions = {}): TernApp {
  const slot = new DatabaseSlot();
  const database: Database = {
    get driver() {
      return slot.db.driver;
    },
    query: (sql, params) => refuseUnstorableText(slot.db.query(sql, params)),
    transaction: (work) => refuseUnstorableText(slot.db.transaction(work)),
    close: () => slot.opened?.close() ?? Promise.resolve(),
  };
  const conduit = new Conduit(database);
  const tokens = new Tokens(options.jwtSecret ?? jwtSecretFromEnv({}));

  const app = new TernApp({
    logger: options.logger,
    // Every route, the document (/api/openapi.json) and the docs page (/api/docs) under /api.
    prefix: API_PREFIX,
    openapi: exampleOpenAPI({
      // errors.ts writes every error answer as {"errors":{"body":[…]}}: documented once, here.
      problemResponses: { schema: GenericErrorModel, mediaType: 'application/json' },
      title: 'Conduit (RealWorld) on Tern',
      description: 'The RealWorld API: sign up or log in, then send `Authorization: Token <jwt>`.',
      servers: [{ url: '/', description: 'The server that serves this document' }],
      tags: [
        { name: 'User and Authentication', description: 'Accounts and tokens.' },
        { name: 'Profile', description: 'Users as others see them.' },
        { name: 'Articles', description: 'Articles, the feed and favorites.' },
        { name: 'Comments', description: 'Comments on articles.' },
        { name: 'Tags', description: 'Tags in use.' },
        { name: 'meta', description: 'The service itself.' },
      ],
    }),
  });

  app.onStartup(async function openAndMigrate() {
    slot.db = await openDatabase(options.database);
    await migrate(slot.db);
  });
  app.onClose(() => database.close());

  realWorldErrors(app);
  app.addMiddleware(tokenSecurity(app, conduit, tokens));
  app.registerControllers(
    [new UsersController(conduit, tokens), new ProfilesController(conduit), new ArticlesController(conduit), new CommentsController(conduit), new TagsController(conduit)],
  );

  // Liveness needs nothing; readiness asks the database, so a load balancer stops sending
  // requests to an instance that lost it.
  app.get('/healthz', { summary: 'Liveness', description: 'Answers while the process is up; asks no database.', tags: ['meta'], security: [] }, async () => ({ status: 'ok' }));
  app.get('/readyz', { summary: 'Readiness', description: 'Answers 200 while the database answers, 503 otherwise.', tags: ['meta'], security: [], responses: { 200: { status: String, database: String }, 503: { status: String, database: String } } }, async (req, res) => {
    try {
      await database.query('SELECT 1');
      return { status: 'ok', database: database.driver };
    } catch {
      return res.json({ status: 'unavailable', database: slot.opened?.driver ?? 'not opened' }, 503);
    }
  });
  return app;
}
