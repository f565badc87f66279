/**
 * Security declarations in the OpenAPI document, enforced by `enforceSecurity`.
 * Bearer, API keys in a header, a query parameter and a cookie, and OAuth2 with three flows.
 * Run: `npm run build && node examples/dist/openapi-security/main.js`, then open /docs.
 */
import { APIKey, enforceSecurity, HTTPBearer, HTTPException, OAuth2, Router, TernApp } from '@tern/core';
import { demoCredentials, verifiers, type Credentials, type Principal } from './auth';
import { CreateNote, Note } from './models';
import { exampleOpenAPI } from '../shared/openapi';

/** Where the (external) OAuth2 server lives; the docs page sends users there to log in. */
const AUTH_URL = 'https://auth.example.com';

const SCOPES = {
  'notes:read': 'Read notes',
  'notes:write': 'Create and delete notes',
};

export function buildApp(credentials: Credentials = demoCredentials): TernApp {
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Notes (OpenAPI security)',
      description: 'Every way Tern declares security, enforced by one middleware.',
      tags: [
        { name: 'meta', description: 'The service itself; public.' },
        { name: 'account', description: 'Who is calling.' },
        { name: 'notes', description: 'Notes, each route with its own security requirements.' },
      ],
    }),
  });

  // Declaring a scheme only describes it: `enforceSecurity` below is what checks credentials.
  app.openapiConfig
    .addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'opaque', description: 'Try `alice-token` (read and write; an admin) or `bob-token` (read).' }))
    .addSecurityScheme('apiKeyHeader', new APIKey({ name: 'X-API-Key', in: 'header', description: 'Try `demo-key`.' }))
    .addSecurityScheme('apiKeyQuery', new APIKey({ name: 'api_key', in: 'query' }))
    .addSecurityScheme('apiKeyCookie', new APIKey({ name: 'session', in: 'cookie' }))
    .addSecurityScheme(
      'oauth2',
      new OAuth2({
        description: 'Access tokens are sent as `Authorization: Bearer <token>`.',
        flows: {
          authorizationCode: {
            authorizationUrl: `${AUTH_URL}/authorize`,
            tokenUrl: `${AUTH_URL}/token`,
            refreshUrl: `${AUTH_URL}/refresh`,
            scopes: SCOPES,
          },
          clientCredentials: { tokenUrl: `${AUTH_URL}/token`, scopes: SCOPES },
          password: { tokenUrl: `${AUTH_URL}/token`, scopes: SCOPES },
        },
      }),
    );
  // Every route's `security` is enforced from here on, with OpenAPI's semantics: 401 for missing
  // or invalid credentials, 403 for a token lacking a scope or a principal lacking a role (its
  // `roles` property). A misdeclared route fails ready().
  const { user, service, grant } = verifiers(credentials);
  app.addMiddleware(enforceSecurity(app, { bearerAuth: user, apiKeyHeader: service, apiKeyQuery: service, apiKeyCookie: service, oauth2: grant }));

  const notes = new Map<number, Note>([[1, { id: 1, title: 'Welcome', body: 'Declaring security never enforces it.', tags: ['tern'], owner: 'alice' }]]);
  let nextId = 2;

  // `security: []` declares a public route.
  app.get(
    '/health',
    { summary: 'Health check', description: 'Public: needs no credentials.', tags: ['meta'], security: [], responses: { 200: { status: String } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/me',
    {
      summary: 'The caller',
      description: 'The user the bearer token belongs to. Tern documents the 401 `enforceSecurity` answers.',
      tags: ['account'],
      security: [{ bearerAuth: [] }],
      responses: { 200: { name: String, kind: String, scopes: [String], roles: [String] } },
    },
    async (req) => req.user as Principal,
  );

  const router = new Router({ prefix: '/notes', tags: ['notes'], name: 'notes' });

  router.get(
    '/',
    {
      name: 'list',
      summary: 'List notes',
      description: [
        'Entries are alternatives: any one credential will do.',
        '',
        '| credential | demo value |',
        '| :-- | :-- |',
        '| bearer token | `alice-token`, `bob-token` |',
        '| API key (header, query or cookie) | `demo-key` |',
        '| OAuth2 | a token with `notes:read` |',
      ].join('\n'),
      // Any one of: a bearer token, an API key (header, query or cookie), an OAuth2 token with notes:read.
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }, { apiKeyCookie: [] }, { oauth2: ['notes:read'] }],
      parameters: [{ name: 'tag', in: 'query', required: false, description: 'Only notes with this tag', schema: { type: 'string' } }],
      responses: { 200: [Note] },
    },
    async (req) => {
      const tag = req.queryParams.get('tag');
      const all = [...notes.values()];
      return tag === undefined ? all : all.filter((note) => note.tags.includes(tag));
    },
  );

  router.get(
    '/{id:int}',
    {
      name: 'get',
      summary: 'Get a note',
      description: 'One note by its id, for a user token or an OAuth2 token with notes:read.',
      security: [{ bearerAuth: [] }, { oauth2: ['notes:read'] }],
      responses: { 200: Note },
      problems: { 404: 'No such note' },
    },
    async (req, res, { id }) => {
      const note = notes.get(id);
      if (!note) throw new HTTPException(404, `No note ${id}`);
      return note;
    },
  );

  router.post(
    '/',
    {
      name: 'create',
      summary: 'Create a note',
      description: 'Needs an OAuth2 token with notes:write; a token without it is a 403.',
      requestModel: CreateNote,
      statusCode: 201,
      security: [{ oauth2: ['notes:write'] }],
      responses: { 201: Note },
    },
    async (req) => {
      const input = req.body as CreateNote;
      const note: Note = { id: nextId++, title: input.title, body: input.body ?? '', tags: input.tags ?? [], owner: (req.user as Principal).name };
      notes.set(note.id, note);
      return note;
    },
  );

  router.delete(
    '/{id:int}',
    {
      name: 'delete',
      summary: 'Delete a note',
      description: 'Both credentials in one entry: a user token *and* the API key header.',
      security: [{ bearerAuth: [], apiKeyHeader: [] }],
      responses: { 204: { description: 'Deleted' } },
      problems: { 404: 'No such note' },
    },
    async (req, res, { id }) => {
      if (!notes.delete(id)) throw new HTTPException(404, `No note ${id}`);
      return res.json(null, 204);
    },
  );

  router.get(
    '/export',
    {
      name: 'export',
      summary: 'Export every note as text',
      description: 'One note per line, id and title separated by a tab. Deprecated: list notes as JSON instead.',
      deprecated: true,
      security: [{ apiKeyCookie: [] }, { apiKeyQuery: [] }],
      responses: { 200: { description: 'Plain text, one note per line' } },
      produces: { 200: 'text/plain' },
    },
    async (req, res) => res.text([...notes.values()].map((note) => `${note.id}\t${note.title}`).join('\n')),
  );
  router.get(
    '/stats',
    {
      name: 'stats',
      summary: 'Count notes per owner',
      description: 'For admins only: a bearer token whose user has the `admin` role (`alice-token`); any other user gets a 403.',
      // A role on a non-OAuth2 scheme: enforced against the principal's `roles`, and kept in the document.
      security: [{ bearerAuth: ['admin'] }],
      responses: { 200: [{ owner: String, notes: Number }] },
    },
    async () => {
      const counts = new Map<string, number>();
      for (const note of notes.values()) counts.set(note.owner, (counts.get(note.owner) ?? 0) + 1);
      return [...counts].map(([owner, count]) => ({ owner, notes: count }));
    },
  );
  app.mountRouter(router);

  // Operational routes stay out of the document.
  app.get('/internal/metrics', { excludeFromSchema: true }, async () => ({ notes: notes.size }));

  return app;
}
