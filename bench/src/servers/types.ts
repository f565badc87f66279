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
