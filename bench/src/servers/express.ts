/**
 * Express 5 as shipped (its default ETag and x-powered-by included): express.json() for bodies,
 * hand-written checks for the item (shared/item-check.ts, the same rules as the class-validator
 * model) and for the path parameters (id digits only, slug pattern).
 */
import express, { NextFunction, Request, Response } from 'express';
import { checkItem } from '../shared/item-check';
import { INT_RE, MW_USER, SLUG_RE } from '../shared/payload';
import { FillerRoute, colonPath, fillerBody, splitFillers } from '../shared/routes';
import { PEOPLE_PATH, makePeople, toPersonJson } from '../shared/people';
import { USERS_PATH, makeUsers, toUserJson } from '../shared/users';
import { type ServerOptions, type StartServer, closeServer } from './types';

/** `req.user` as this server sets it; read through a cast because @types/passport (a dev dependency) gives Express's `req.user` its own type. */
type UserRequest = Omit<Request, 'user'> & { user?: { id: number } };

export const start: StartServer = async (options: ServerOptions) => {
  const app = express();
  app.use(express.json());

  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      app.get(colonPath(route), (_req, res) => {
        res.json(body);
      });
    }
  };

  addFillers(before);

  app.get('/', (_req, res) => {
    res.json({ hello: 'world' });
  });

  app.get('/users/:id/posts/:slug', (req: Request<{ id: string; slug: string }>, res) => {
    const { id, slug } = req.params;
    if (!INT_RE.test(id) || !SLUG_RE.test(slug)) {
      res.status(422).json({ error: 'invalid path parameter' });
      return;
    }
    res.json({ id: Number(id), slug });
  });

  let nextId = 0;
  app.post('/items', (req, res) => {
    const result = checkItem(req.body);
    if ('errors' in result) {
      res.status(422).json({ errors: result.errors });
      return;
    }
    res.status(201).json({ id: ++nextId, ...result.value });
  });

  app.get(
    '/mw',
    async (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('x-mw-1', '1');
      next();
    },
    async (req: Request, _res: Response, next: NextFunction) => {
      (req as unknown as UserRequest).user = MW_USER;
      next();
    },
    async (_req: Request, res: Response, next: NextFunction) => {
      res.setHeader('x-mw-3', '3');
      next();
    },
    (req: Request, res: Response) => {
      res.json({ user: (req as unknown as UserRequest).user!.id });
    },
  );

  // Scenario 7: the hand-written mapping a plain Express service uses to keep secrets in.
  const users = makeUsers();
  app.get(USERS_PATH, (_req, res) => {
    res.json(users.map(toUserJson));
  });
  // Scenario 10: the same, for the entities.
  const people = makePeople();
  app.get(PEOPLE_PATH, (_req, res) => {
    res.json(people.map(toPersonJson));
  });

  addFillers(after);

  const server = await new Promise<import('node:http').Server>((resolve, reject) => {
    const s = app.listen(options.port, options.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });

  return {
    close: () => closeServer(server),
  };
};
