/**
 * Tern with plain route declarations (`app.get` / `app.post`), defaults as shipped.
 * The body is validated by the class-validator model of shared/item-dto.ts (`requestModel`).
 */
import 'reflect-metadata';
import { fromConnect, TernApp, type Handler, type Middleware, type TernAppOptions } from '@tern/core';
import { ItemDto } from '../shared/item-dto';
import { MW_USER } from '../shared/payload';
import { FillerRoute, fillerBody, splitFillers, ternPath } from '../shared/routes';
import { PEOPLE_PATH, PersonDto, makePeople } from '../shared/people';
import { staticRoot } from '../shared/static-file';
import { USERS_PATH, UserDto, makeUsers } from '../shared/users';
import { connectLayer1, connectLayer2, connectLayer3, layer1, layer2, layer3 } from './tern-middleware';
import type { RunningServer, ServerOptions, StartServer } from './types';

/** Scenario 4's layers as Tern middleware, and (scenario 17) the same written as Connect middleware through fromConnect. */
const TERN_LAYERS: Middleware[] = [layer1, layer2, layer3];
export const CONNECT_LAYERS: Middleware[] = [fromConnect(connectLayer1), fromConnect(connectLayer2), fromConnect(connectLayer3)];

/** What a scenario's variant of this server changes besides the app's options (scenario 12: a session read). */
export interface TernVariant {
  /** App middleware, added before the routes. */
  middleware?: Middleware[];
  /** The handler of GET / (default `{ hello: 'world' }`). */
  hello?: Handler;
  /** The layers in front of `/mw` (default scenario 4's Tern middleware; scenario 17: `CONNECT_LAYERS`). */
  mwLayers?: Middleware[];
}

/**
 * Tern with the bench's routes; `appOptions` (a logger for scenario 9, a rate limit for 11) as
 * given, defaults otherwise.
 */
export async function startTern(options: ServerOptions, appOptions: TernAppOptions = {}, variant: TernVariant = {}): Promise<RunningServer> {
  const app = new TernApp(appOptions);
  for (const middleware of variant.middleware ?? []) app.addMiddleware(middleware);

  const [addBefore, addAfter] = ternFillers(app, options.fillers);

  addBefore();

  app.get('/', variant.hello ?? (async () => ({ hello: 'world' })));

  app.get('/users/{id:int}/posts/{slug:slug}', async (_req, _res, { id, slug }) => ({ id, slug }));

  let nextId = 0;
  app.post('/items', { requestModel: ItemDto, statusCode: 201 }, async (req) => ({
    id: ++nextId,
    ...(req.body as ItemDto),
  }));

  app.get('/mw', { middleware: variant.mwLayers ?? TERN_LAYERS }, async (req) => ({
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

  addAfter();

  await app.listen({ port: options.port, host: options.host });
  return { close: () => app.close() };
}

export const start: StartServer = (options) => startTern(options);

/**
 * The filler routes as every Tern server registers them: the first half before the measured
 * routes, the second after (see shared/routes.ts `splitFillers`).
 */
export function ternFillers(app: TernApp, fillers: number): [before: () => void, after: () => void] {
  const add = (routes: FillerRoute[]) => () => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(ternPath(route), async () => body);
    }
  };
  const [before, after] = splitFillers(fillers);
  return [add(before), add(after)];
}
