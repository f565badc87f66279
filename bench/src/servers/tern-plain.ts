/**
 * Tern with plain route declarations (`app.get` / `app.post`), defaults as shipped.
 * The body is validated by the class-validator model of shared/item-dto.ts (`requestModel`).
 */
import 'reflect-metadata';
import { fromConnect, TernApp, type Middleware, type TernAppOptions } from '@tern/core';
import { ItemDto } from '../shared/item-dto';
import { MW_USER } from '../shared/payload';
import { FillerRoute, fillerBody, splitFillers, ternPath } from '../shared/routes';
import { PEOPLE_PATH, PersonDto, makePeople } from '../shared/people';
import { staticRoot } from '../shared/static-file';
import { USERS_PATH, UserDto, makeUsers } from '../shared/users';
import { connectLayer1, connectLayer2, connectLayer3, layer1, layer2, layer3 } from './tern-middleware';
import type { RunningServer, ServerOptions, StartServer } from './types';

/** Scenario 4's layers as Tern middleware, and (scenario 11) the same written as Connect middleware through fromConnect. */
const TERN_LAYERS: Middleware[] = [layer1, layer2, layer3];
export const CONNECT_LAYERS: Middleware[] = [fromConnect(connectLayer1), fromConnect(connectLayer2), fromConnect(connectLayer3)];

/** Tern with the bench's routes; `appOptions` (a logger for scenario 9) as given, defaults otherwise; `/mw` behind `mwLayers`. */
export async function startTern(options: ServerOptions, appOptions: TernAppOptions = {}, mwLayers: Middleware[] = TERN_LAYERS): Promise<RunningServer> {
  const app = new TernApp(appOptions);

  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(ternPath(route), async () => body);
    }
  };

  addFillers(before);

  app.get('/', async () => ({ hello: 'world' }));

  app.get('/users/{id:int}/posts/{slug:slug}', async (_req, _res, { id, slug }) => ({ id, slug }));

  let nextId = 0;
  app.post('/items', { requestModel: ItemDto, statusCode: 201 }, async (req) => ({
    id: ++nextId,
    ...(req.body as ItemDto),
  }));

  app.get('/mw', { middleware: mwLayers }, async (req) => ({
    user: (req.user as typeof MW_USER).id,
  }));

  // Scenario 8: res.file (send: ETag, Last-Modified, ranges; realpath check against the root).
  const root = staticRoot();
  app.get('/static/{name}', async (_req, res, { name }) => res.file(name, { root }));
  // Scenario 7: the declared response model filters (and writes) the stored entities.
  const users = makeUsers();
  app.get(USERS_PATH, { responses: { 200: [UserDto] } }, async () => users);
  // Scenario 10: the same for entities with undeclared columns, a float, an escaped bio.
  const people = makePeople();
  app.get(PEOPLE_PATH, { responses: { 200: [PersonDto] } }, async () => people);

  addFillers(after);

  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startTern(options);
