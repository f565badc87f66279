/**
 * Startup floor (issue 27): a bare node:http process routing the startup scenario's N paths
 * from a Map. Nothing else is loaded (no class-validator, no DTOs), so its time to listening is
 * Node's own boot plus the least a server can do.
 */
import * as http from 'node:http';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import { type ServerOptions, type StartServer, closeServer, listen } from './types';

const DIGITS = /^[0-9]+$/;

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export const start: StartServer = async (options: ServerOptions) => {
  // '/rI/mJ' → handler of its id.
  const table = new Map<string, (id: number) => unknown>();
  for (const route of startupRoutes(options.routes)) table.set(route.path, (id) => startupBody(route, id));

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const slash = path.lastIndexOf('/');
    const handler = req.method === 'GET' && slash > 0 ? table.get(path.slice(0, slash)) : undefined;
    const id = path.slice(slash + 1);
    if (!handler || !DIGITS.test(id)) return send(res, 404, { error: 'not found' });
    send(res, 200, handler(Number(id)));
  });
  await listen(server, options);
  return {
    close: () => closeServer(server),
  };
};
