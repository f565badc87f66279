import type { Server } from 'node:http';
/** What every server module under bench/src/servers exports as `start`. */
export interface ServerOptions {
  port: number;
  host: string;
  /** How many filler routes to register besides the scenario routes (shared/routes.ts). */
  fillers: number;
  /** Startup servers (servers/startup-*.ts): how many `/rI/mJ/{id}` routes to register. */
  routes: number;
}

export interface RunningServer {
  close(): Promise<void>;
  /** Startup servers: milliseconds spent in each phase of `start()` (declaring, `ready()`, `listen()`). */
  phases?: Record<string, number>;
}

export type StartServer = (options: ServerOptions) => Promise<RunningServer>;

/** Starts a node:http server on the bench's port and host (its 'error' rejects). */
export function listen(server: Server, options: ServerOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
}

/** Closes a node:http server at once: the bench's keep-alive connections would hold `close()` open. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}
