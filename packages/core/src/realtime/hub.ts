/**
 * The sockets of one app in this process: how many there are (the connection cap), the idle
 * sweep that pings them and cuts the silent ones, their rooms, and closing them all at shutdown.
 */
import type { Duplex } from 'node:stream';
import type { TernStore } from '../store/store';
import type { SocketLimits } from './limits';
import { Rooms } from './rooms';
import type { LiveSocket, SocketHost } from './socket';

/** Close code 1001: the endpoint is going away (the server shuts down). */
export const GOING_AWAY = 1001;

export class SocketHub implements SocketHost {
  readonly sockets = new Set<LiveSocket>();
  readonly rooms: Rooms;
  /** Upgrades under way plus open sockets: what the cap counts, so a burst cannot pass it. */
  private held = 0;
  private closing = false;
  private sweeper?: NodeJS.Timeout;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly limits: SocketLimits,
    store: () => TernStore | undefined,
    report: (err: unknown) => void,
  ) {
    this.rooms = new Rooms(store, report);
  }

  get sendBufferLimit(): number {
    return this.limits.sendBufferLimit;
  }

  /** Why no socket can be taken now, else undefined. */
  refusal(): 'closing' | 'full' | undefined {
    if (this.closing) return 'closing';
    return this.held >= this.limits.maxConnections ? 'full' : undefined;
  }

  /** Counts an upgrade from its 101 until its connection closes (a failed handshake included). */
  hold(connection: Duplex): void {
    this.held++;
    connection.on('close', this.release);
  }

  /** Shared by every connection (one closes once), so an open socket holds no closure of its own. */
  private readonly release = (): void => {
    this.held--;
  };

  add(socket: LiveSocket): void {
    this.sockets.add(socket);
    if (this.sweeper === undefined && this.limits.idleTimeout !== Infinity) {
      this.sweeper = setInterval(() => this.sweep(), Math.max(10, Math.floor(this.limits.idleTimeout / 2)));
      this.sweeper.unref();
    }
  }

  remove(socket: LiveSocket): void {
    this.sockets.delete(socket);
    this.rooms.leaveAll(socket);
    if (this.sockets.size > 0) return;
    this.stopSweeping();
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** Resolves once no socket is open (the `close` handlers of the last ones have been called) and their rooms are left. */
  async ended(): Promise<void> {
    if (this.sockets.size > 0) await new Promise<void>((resolve) => this.waiting.push(resolve));
    await this.rooms.settled();
  }

  join(socket: LiveSocket, room: string): Promise<void> {
    return this.rooms.join(socket, room);
  }

  leave(socket: LiveSocket, room: string): Promise<void> {
    return this.rooms.leave(socket, room);
  }

  /**
   * The app is closing: new upgrades get 503, open sockets a close frame with 1001. Their
   * connections then end with the closing handshake, or are cut by `close()`'s timeout.
   */
  closeAll(): void {
    this.closing = true;
    this.stopSweeping();
    for (const socket of this.sockets) socket.close(GOING_AWAY, 'Server shutting down');
  }

  /**
   * The close timeout ran out and these sockets did not finish their closing handshake: their
   * connections are destroyed. Tern's own server destroys its connections itself; a server of the
   * user's (`app.upgradeHandler`) is not Tern's to close, so its sockets are cut here.
   */
  cutAll(): void {
    for (const socket of this.sockets) socket.ws.terminate();
  }

  /** The app was closed and may listen again. */
  reopen(): void {
    this.closing = false;
  }

  /**
   * Every half idle timeout: a socket silent since the last sweep (not even a pong to its ping)
   * is cut; the others are pinged, so a live peer answers before the next sweep.
   */
  private sweep(): void {
    for (const socket of this.sockets) {
      if (!socket.active) {
        socket.ws.terminate();
        continue;
      }
      socket.active = false;
      socket.ws.ping();
    }
  }

  private stopSweeping(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
