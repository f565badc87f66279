/** What every server module under bench/src/servers exports as `start`. */
export interface ServerOptions {
  port: number;
  host: string;
  /** How many filler routes to register besides the four scenario routes (shared/routes.ts). */
  fillers: number;
}

export interface RunningServer {
  close(): Promise<void>;
}

export type StartServer = (options: ServerOptions) => Promise<RunningServer>;
