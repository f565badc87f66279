/**
 * Routers: one `users` router mounted under two API versions, each version a named router so
 * route names read `v1.users.get` and `v2.users.get`. A custom converter constrains a segment.
 */
import { Convertor, registerUrlConvertor, Router, TernApp, type Middleware } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** `{lang:lang}`: a two-letter language code, lower-cased. */
class LanguageConvertor extends Convertor<string> {
  regex = '[a-zA-Z]{2}';
  override openapi = { type: 'string', pattern: '^[a-zA-Z]{2}$' };
  convert(value: string): string {
    return value.toLowerCase();
  }
  toString(value: string): string {
    return value.toLowerCase();
  }
}
registerUrlConvertor('lang', new LanguageConvertor());

const users = [
  { id: 1, name: 'Ada Lovelace', email: 'ada@example.com' },
  { id: 2, name: 'Alan Turing', email: 'alan@example.com' },
];

function usersRouter(): Router {
  const router = new Router({ prefix: '/users', name: 'users', tags: ['users'] });
  router.get('/', { name: 'list', summary: 'List users', description: 'Every user, by id and name.', responses: { 200: [{ id: Number, name: String }] } }, async () => users.map(({ id, name }) => ({ id, name })));
  router.get('/{id:int}', {
    name: 'get',
    summary: 'Get a user',
    description: 'One user with their email address.',
    responses: { 200: { id: Number, name: String, email: String }, 404: { message: String } },
  }, async (req, res, { id }) => {
    const user = users.find((u) => u.id === id);
    return user ?? res.json({ message: `No user ${id}` }, 404);
  });
  return router;
}

/** Marks every v1 response as deprecated, the way an API sunsets a version. */
const sunset: Middleware = async (req, res, next) => (await next()).setHeader('Deprecation', 'true');

export function buildApp(): TernApp {
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Users (routers)',
      version: '2.0.0',
      description: 'One users router mounted under two API versions.',
      tags: [
        { name: 'v1', description: 'Version 1: deprecated, answers carry `Deprecation: true`.' },
        { name: 'v2', description: 'Version 2.' },
        { name: 'users', description: 'People using the API.' },
        { name: 'greetings', description: 'Saying hello.' },
      ],
    }),
  });
  const shared = usersRouter();

  const v1 = new Router({ prefix: '/api/v1', name: 'v1', tags: ['v1'], middleware: [sunset] });
  v1.mountRouter(shared);
  const v2 = new Router({ prefix: '/api/v2', name: 'v2', tags: ['v2'] });
  v2.mountRouter(shared);
  v2.get('/greeting/{lang:lang}', { name: 'greeting', summary: 'Say hello', description: 'Hello in the language given by its two-letter code.', tags: ['greetings'], responses: { 200: { greeting: String } } }, async (req, res, { lang }) => ({
    greeting: lang === 'fr' ? 'Bonjour' : 'Hello',
  }));

  app.mountRouter(v1);
  app.mountRouter(v2);
  return app;
}
