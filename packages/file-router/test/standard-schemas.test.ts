/**
 * Route files take Standard Schemas in `markAsRoute` as any route does: a zod `requestModel`
 * validates the body, a zod `responseModel` filters and documents the answer.
 */
import { join } from 'node:path';
import { TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const ROUTE = `import { markAsRoute } from '@tern/file-router';
import { CreateNote, Note } from ${JSON.stringify(join(__dirname, 'support', 'zod-schemas'))};
export const post = markAsRoute({ requestModel: CreateNote, responseModel: Note, statusCode: 201 }, async (req) => ({ id: 1, ...req.body, secret: 'x' }));
`;

describe('Standard Schemas in route files', () => {
  it('validates with the requestModel schema and filters with the responseModel schema', async () => {
    const app = new TernApp({ logger: false });
    new FileRouter(app, { root: makeTree({ 'notes/route.ts': ROUTE }) });
    const created = await app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload: '{"title":"a","x":1}' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 1, title: 'a' });
    const refused = await app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload: '{"title":""}' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].path).toBe('title');
    const doc = (await app.inject('/openapi.json')).json();
    expect(doc.paths['/notes'].post.responses['201'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Note' });
  });
});
