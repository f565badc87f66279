/**
 * Dependency injection with tsyringe: the container builds the controllers (`resolve`) and a
 * child container per request carries request-scoped values. See docs/dependency-injection.md.
 */
import 'reflect-metadata'; // tsyringe needs the polyfill before its decorators run
import { TernApp } from '@tern/core';
import { container as rootContainer, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { requestScope } from './request-scope';
import { CLOCK, type Clock } from './services';
import { UsersController } from './users.controller';
import { exampleOpenAPI } from '../shared/openapi';

/**
 * @example
 * const app = buildApp();                          // the global container, the real clock
 * const test = buildApp(container.createChildContainer()); // an isolated one
 */
export function buildApp(container: DependencyContainer = rootContainer.createChildContainer()): TernApp {
  if (!container.isRegistered(CLOCK)) container.register<Clock>(CLOCK, { useValue: () => new Date() });
  const app = new TernApp({
    resolve: (Class) => container.resolve(Class as InjectionToken<object>),
    openapi: exampleOpenAPI({
      title: 'Users (dependency injection)',
      description: 'Controllers built by a tsyringe container, with a request-scoped audit trail.',
      tags: [{ name: 'users', description: 'Users, read and renamed.' }],
    }),
  });
  app.addMiddleware(requestScope(container));
  app.registerControllers([UsersController]);
  return app;
}
