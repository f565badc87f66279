import { createServer, type Server, type ServerResponse } from 'node:http';

/**
 * The page side of live reload: listens for the dev loop's `reload` event, then waits until the
 * server answers again (it may be restarting) and reloads the page.
 */
function clientScript(origin: string): string {
  return `(() => {
  const events = new EventSource(${JSON.stringify(`${origin}/events`)});
  events.addEventListener('reload', () => {
    events.close();
    const retry = (left) => fetch(location.href, { method: 'HEAD', cache: 'no-store' })
      .then(() => location.reload(), () => { if (left > 0) setTimeout(() => retry(left - 1), 100); });
    retry(150);
  });
})();
`;
}

/**
 * The path of the script pages load; the dev loop's server also answers `/events`.
 *
 * @example
 * `<script src="${origin}${LIVE_RELOAD_SCRIPT}"></script>`
 */
export const LIVE_RELOAD_SCRIPT = '/tern-live-reload.js';

/**
 * A small server on loopback that browsers keep an event stream open to: `reload()` tells each
 * open page to reload. Pages find it through the `TERN_LIVE_RELOAD` environment variable the dev
 * loop gives the site, which `configureTemplates` reads to add the script to every page.
 *
 * @example
 * const live = new LiveReloadServer();
 * process.env.TERN_LIVE_RELOAD = await live.listen();
 * watch('templates', { recursive: true }, () => live.reload());
 */
export class LiveReloadServer {
  private readonly clients = new Set<ServerResponse>();
  private server?: Server;
  /** `http://127.0.0.1:<port>`, once listening. */
  origin = '';

  async listen(port = 0): Promise<string> {
    const server = (this.server = createServer((req, res) => {
      // Pages of the site (another port) load the script and open the stream.
      res.setHeader('access-control-allow-origin', '*');
      if (req.url === LIVE_RELOAD_SCRIPT) {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(clientScript(this.origin));
      } else if (req.url === '/events') {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        res.write(': connected\n\n');
        this.clients.add(res);
        req.on('close', () => this.clients.delete(res));
      } else {
        res.writeHead(404).end();
      }
    }));
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    const address = server.address();
    this.origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
    return this.origin;
  }

  /** Tells every open page to reload. */
  reload(): void {
    for (const client of this.clients) client.write('event: reload\ndata: {}\n\n');
  }

  /** How many pages listen now. */
  get listeners(): number {
    return this.clients.size;
  }

  async close(): Promise<void> {
    for (const client of this.clients) client.end();
    this.clients.clear();
    const server = this.server;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
