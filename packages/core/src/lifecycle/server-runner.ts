/**
 * The HTTP server an app runs on and its shutdown: `listen()`, a bounded `close()` and the
 * `onClose` hooks. Kept apart from the app so `app.ts` holds declarations, and the order of a
 * shutdown reads in one place.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServerTimeouts } from '../config';
import { TernError, TernRangeError, TernTypeError } from '../errors';
import { byDeadline, closeServer, createHttpServer, type ServerHooks } from '../http/server';

/** A function `app.onClose` runs once the server has stopped; may return a promise. */
export type CloseHook = () => void | Promise<void>;

/** What shutdown needs of the app's request pipeline (kept structural: `pipeline/` is a higher layer). */
export interface Stoppable {
  /** While true, responses are written with `Connection: close`. */
  closing: boolean;
  /** Ends the event streams (and sockets) open now: they never end on their own, so their connections could not close. */
  endStreams(): void;
  /** Resolves once what `endStreams` ended has finished (sockets' close handlers ran). */
  ended?(): Promise<void>;
  /** The close timeout ran out: destroys the sockets still open, whatever server took them. */
  cutSockets?(): void;
}

export class ServerRunner {
  /** The server `listen()` started, if any. */
  server?: Server;
  private readonly closeHooks: CloseHook[] = [];
  private closeHooksRan = false;
  private shutdown?: Promise<void>;

  constructor(
    private readonly timeouts: ServerTimeouts,
    /** Reports a failing hook; must not throw. */
    private readonly reportHookError: (what: string, err: unknown) => void,
  ) {
    checkTimeout('closeTimeout', timeouts.closeTimeout, 0);
    // A send timeout of 0 would cut every response the kernel cannot take in one go.
    checkTimeout('sendTimeout', timeouts.sendTimeout, 1);
  }

  async listen(hooks: ServerHooks, options: { port?: number; host?: string }): Promise<string> {
    if (this.server) throw new TernError('TERN_ALREADY_LISTENING', 'app.listen() was already called.');
    const server = createHttpServer(hooks, this.timeouts);
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, options.host ?? '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    return `http://${host}:${address.port}`;
  }

  /**
   * Stops the server (bounded by `closeTimeout`), then runs the hooks; concurrent calls share one
   * shutdown. `pipeline` (absent before `ready()`) answers `Connection: close` meanwhile.
   */
  close(pipeline: Stoppable | undefined): Promise<void> {
    return (this.shutdown ??= this.stopServer(pipeline)
      .then(() => this.runCloseHooks())
      .finally(() => (this.shutdown = undefined)));
  }

  onClose(hook: CloseHook): void {
    if (typeof hook !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', 'onClose expects a function.');
    this.closeHooks.push(hook);
  }

  private async stopServer(pipeline: Stoppable | undefined): Promise<void> {
    const server = this.server;
    // An app serving on a server of the user's (`handler`, `upgradeHandler`) still has streams and
    // sockets of its own to end: the user closes that server, not them.
    if (!server && !pipeline) return;
    const closeTimeout = this.timeouts.closeTimeout ?? 10_000;
    const deadline = Date.now() + closeTimeout;
    if (pipeline) {
      pipeline.closing = true;
      pipeline.endStreams();
    }
    if (server) await closeServer(server, this.timeouts.requestTimeout ?? 30_000, closeTimeout);
    // closeServer ended the connections of Tern's server; sockets taken on another server finish
    // their closing handshakes within the same timeout or are cut. Their close handlers run before the onClose hooks.
    if (pipeline?.ended && (await byDeadline(pipeline.ended(), deadline)) === 'expired') {
      pipeline.cutSockets?.();
      await pipeline.ended();
    }
    this.server = undefined;
    if (pipeline) pipeline.closing = false;
  }

  /** Once, at the first close(), last registered first; a failing hook does not stop the others. */
  private async runCloseHooks(): Promise<void> {
    if (this.closeHooksRan) return;
    this.closeHooksRan = true;
    for (const hook of [...this.closeHooks].reverse()) {
      try {
        await hook();
      } catch (err) {
        this.reportHookError(hook.name ? `the onClose hook '${hook.name}'` : 'an onClose hook', err);
      }
    }
  }
}

function checkTimeout(name: 'closeTimeout' | 'sendTimeout', value: number | undefined, least: 0 | 1): void {
  if (value === undefined || value === Infinity) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < least) {
    const kind = least === 0 ? 'a non-negative' : 'a positive';
    throw new TernRangeError('TERN_INVALID_LIMIT', `server.${name} must be ${kind} integer of milliseconds (or Infinity), got ${String(value)}.`);
  }
}
