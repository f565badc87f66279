/**
 * Route files keep their contract too: `markAsRoute({ responseModel })` filters what the handler
 * returns; `responseFiltering: false` opts one route out.
 */
import { join } from 'node:path';
import { TernApp } from '@tern/core';
import { FileRouter } from '@tern/file-router';
import { ENTITY } from './support/response-dtos';
import { makeTree, removeTrees } from './support/tree';

afterAll(removeTrees);

const IMPORTS =
  `import { markAsRoute } from '@tern/file-router';\n` + `import { ENTITY, MeDto } from ${JSON.stringify(join(__dirname, 'support', 'response-dtos'))};\n`;

function appFor(files: Record<string, string>): TernApp {
  const app = new TernApp({ logger: false });
  new FileRouter(app, { root: makeTree(files) });
  return app;
}

describe('response filtering in route files', () => {
  it('sends only what responseModel declares, at the route statusCode', async () => {
    const app = appFor({
      'auth/me/route.ts': `${IMPORTS}export const get = markAsRoute({ responseModel: MeDto }, async () => ENTITY);\n`,
      'users/route.ts': `${IMPORTS}export const get = markAsRoute({ responseModel: [MeDto] }, async () => [ENTITY, ENTITY]);
export const post = markAsRoute({ responseModel: MeDto, statusCode: 201 }, async () => ENTITY);\n`,
    });
    const me = await app.inject('/auth/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toEqual({ id: 1, email: 'ada@example.com' });
    expect((await app.inject('/users')).json()).toEqual([{ id: 1, email: 'ada@example.com' }, { id: 1, email: 'ada@example.com' }]);
    const created = await app.inject({ method: 'POST', url: '/users' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 1, email: 'ada@example.com' });
  });

  it('responseFiltering: false sends the handler value whole', async () => {
    const app = appFor({
      'raw/route.ts': `${IMPORTS}export const get = markAsRoute({ responseModel: MeDto, responseFiltering: false }, async () => ENTITY);\n`,
    });
    expect((await app.inject('/raw')).json()).toEqual(ENTITY);
  });
});
