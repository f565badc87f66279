/**
 * The RealWorld "Conduit" API (https://realworld-docs.netlify.app) on Tern: users with JWTs,
 * profiles and follows, articles with slugs, tags and favorites, comments, a feed, paging, all
 * under `/api` and stored in Postgres: PGlite in this process by default, a PostgreSQL server
 * when `DATABASE_URL` is set. Run it with `npm run start:realworld`.
 */
import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { TernApp, type ErrorLogger } from '@tern/core';
import { attachDatabase, type DatabaseOptions } from '@tern/postgres';
import { exampleOpenAPI } from '../shared/openapi';
import { jwtSecretFromEnv, Tokens } from './auth';
import { Conduit } from './conduit';
import { ArticlesController } from './controllers/articles.controller';
import { CommentsController } from './controllers/comments.controller';
import { ProfilesController } from './controllers/profiles.controller';
import { TagsController } from './controllers/tags.controller';
import { UsersController } from './controllers/users.controller';
import { GenericErrorModel } from './dto';
import { realWorldErrors } from './errors';
import { tokenSecurity } from './security';

/** The schema's `.sql` files: beside this module in the sources, and found from the build's output too. */
const MIGRATIONS = [join(__dirname, 'migrations'), join(__dirname, '..', '..', 'realworld', 'migrations')].find((dir) => existsSync(dir)) as string;

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

  // Opened and migrated by ready() (a failure fails listen() naming the hook), closed by
  // close() after the last request. Every value a client sends reaches SQL as a parameter: a
  // taken username or email, or text with a NUL character (which PostgreSQL cannot store), is
  // the client's mistake and answered 422 as the spec says, from one place for every query.
  const database = attachDatabase(app, { ...options.database, migrations: MIGRATIONS, uniqueViolations: { status: 422 } });
  const conduit = new Conduit(database);
  const tokens = new Tokens(options.jwtSecret ?? jwtSecretFromEnv({}));

  realWorldErrors(app);
  app.addMiddleware(tokenSecurity(app, conduit, tokens));
  app.registerControllers(
    [new UsersController(conduit, tokens), new ProfilesController(conduit), new ArticlesController(conduit), new CommentsController(conduit), new TagsController(conduit)],
  );

  // Liveness needs nothing; readiness asks the database, so a load balancer stops sending
  // requests to an instance that lost it.
  app.get('/healthz', { summary: 'Liveness', description: 'Answers while the process is up; asks no database.', tags: ['meta'], security: [] }, async () => ({ status: 'ok' }));
  app.get('/readyz', { summary: 'Readiness', description: 'Answers 200 while the database answers, 503 otherwise.', tags: ['meta'], security: [], responses: { 200: { status: String, database: String }, 503: { status: String, database: String } } }, async (req, res) => {
    if (await database.isReady()) return { status: 'ok', database: database.driver };
    return res.json({ status: 'unavailable', database: 'not answering' }, 503);
  });
  return app;
}
