/**
 * Startup, for context (issue 27): Express 5 with the same N routes, `GET /rI/mJ/:id`, the id
 * checked by hand.
 */
import { performance } from 'node:perf_hooks';
import express from 'express';
import type { Server } from 'node:http';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import { type ServerOptions, type StartServer, closeServer } from './types';

const DIGITS = /^[0-9]+$/;

export const start: StartServer = async (options: ServerOptions) => {
  const t0 = performance.now();
  const app = express();
  for (const route of startupRoutes(options.routes)) {
    app.get(`${route.path}/:id`, (req: express.Request<{ id: string }>, res) => {
      if (!DIGITS.test(req.params.id)) {
        res.status(404).json({ error: 'not found' });
        return;
      }
      res.json(startupBody(route, Number(req.params.id)));
    });
  }
  const declared = performance.now();
  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(options.port, options.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const listening = performance.now();
  return {
    close: () => closeServer(server),
    phases: { declare: declared - t0, listen: listening - declared },
  };
};
