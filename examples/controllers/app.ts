/**
 * A small users-and-posts API written as controller classes, with versioned prefixes
 * (`/api/v1`, `/api/v2`) and bearer authentication enforced from the routes' declarations.
 * Run it with `npm start`, then open /docs; tokens `ada-token` and `grace-token` sign in.
 */
import 'reflect-metadata';
import { enforceSecurity, HTTPBearer, TernApp } from '@tern/core';
import { bearerVerifier } from './auth';
import { Store } from './store';
import { PostsV1Controller } from './v1/posts.controller';
import { UsersV1Controller } from './v1/users.controller';
import { PostsV2Controller } from './v2/posts.controller';
import { UsersV2Controller } from './v2/users.controller';
import { exampleOpenAPI } from '../shared/openapi';

export interface BuildOptions {
  /** The data to serve; tests pass their own. Default: a store seeded with two users. */
  store?: Store;
}

export function buildApp(options: BuildOptions = {}): TernApp {
  const store = options.store ?? Store.seeded();
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Tern controllers example',
      version: '2.0.0',
      description: 'Users and posts, as controller classes. Sign in with `ada-token` or `grace-token`.',
      tags: [
        { name: 'meta', description: 'The service itself.' },
        { name: 'users', description: 'Accounts; v1 and v2 differ in paging and fields.' },
        { name: 'posts', description: 'What users write.' },
      ],
    }),
  });

  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'opaque', description: 'Try `ada-token` or `grace-token`.' }));
  // Declared once on the routes, enforced here: 401 without a valid token, req.user otherwise.
  app.addMiddleware(enforceSecurity(app, { bearerAuth: bearerVerifier(store) }));

  // Controllers get their dependencies through their constructors: no container needed.
  app.registerControllers([
    new UsersV1Controller(store),
    new PostsV1Controller(store),
    new UsersV2Controller(store),
    new PostsV2Controller(store),
  ]);
  app.get('/health', { summary: 'Health check', description: 'Answers while the process is up; needs no token.', tags: ['meta'], security: [], responses: { 200: { status: String } } }, async () => ({ status: 'ok' }));
  return app;
}
