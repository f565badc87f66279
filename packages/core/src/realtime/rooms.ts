/**
 * Rooms: named sets of sockets that `app.publish(room, data)` reaches. Built on the app's store's
 * publish/subscribe: a process subscribes to a room's channel while one of its sockets is in the
 * room, and a publish goes through the store, so with a shared store (`redisStore`) it reaches
 * the room's sockets in every process. Without a store, a publish reaches this app's sockets.
 */
import { TernTypeError } from '../errors';
import type { TernStore } from '../store/store';
import { binaryFrame, textFrame } from './frames';
import type { LiveSocket } from './socket';

/** The store channel of a room (rooms share the store with sessions and rate limits). */
const CHANNEL = 'tern:room:';
const MAX_ROOM_NAME = 512;

interface Room {
  readonly members: Set<LiveSocket>;
  /** Resolves once the store delivers the room's messages here, with what ends that. */
  readonly subscribed: Promise<(() => Promise<void>) | undefined>;
}

export class Rooms {
  private readonly rooms = new Map<string, Room>();
  /** Subscriptions being ended for sockets that closed. */
  private readonly leaving = new Set<Promise<void>>();

  constructor(
    /** The app's store, when it has one (read at each subscription: the app may be given one late). */
    private readonly store: () => TernStore | undefined,
    /** Reports a failure nobody awaits (ending a subscription). */
    private readonly report: (err: unknown) => void,
  ) {}

  async join(socket: LiveSocket, room: string): Promise<void> {
    checkRoom(room, 'socket.join');
    let entry = this.rooms.get(room);
    if (entry === undefined) {
      const store = this.store();
      const subscribed = store ? store.subscribe(CHANNEL + room, (message) => this.deliver(room, message)) : Promise.resolve(undefined);
      entry = { members: new Set(), subscribed };
      this.rooms.set(room, entry);
      // A store that refuses the subscription leaves no half-made room behind; the join rejects.
      subscribed.catch(() => {
        if (this.rooms.get(room) === entry) this.rooms.delete(room);
      });
    }
    entry.members.add(socket);
    socket.rooms.add(room);
    try {
      await entry.subscribed;
    } catch (err) {
      entry.members.delete(socket);
      socket.rooms.delete(room);
      throw err;
    }
  }

  async leave(socket: LiveSocket, room: string): Promise<void> {
    checkRoom(room, 'socket.leave');
    socket.rooms.delete(room);
    const entry = this.rooms.get(room);
    if (entry === undefined || !entry.members.delete(socket) || entry.members.size > 0) return;
    this.rooms.delete(room);
    const off = await entry.subscribed.catch(() => undefined);
    await off?.();
  }

  /** A closed socket leaves every room it was in. */
  leaveAll(socket: LiveSocket): void {
    for (const room of [...socket.rooms]) {
      const leaving = this.leave(socket, room).catch(this.report);
      this.leaving.add(leaving);
      void leaving.finally(() => this.leaving.delete(leaving));
    }
  }

  /** Resolves once the subscriptions closed sockets ended are gone (the app closes its store after). */
  async settled(): Promise<void> {
    while (this.leaving.size > 0) await Promise.all([...this.leaving]);
  }

  /** Sends `data` to every socket in `room`, in every process sharing the store. */
  async publish(room: string, data: unknown): Promise<void> {
    checkRoom(room, 'app.publish');
    const message = encode(data);
    const store = this.store();
    if (store) return store.publish(CHANNEL + room, message);
    this.deliver(room, message);
  }

  /** The room's members in this process get the message, as one frame built for all of them. */
  private deliver(room: string, message: string): void {
    const entry = this.rooms.get(room);
    if (entry === undefined) return;
    const frame = message[0] === 'b' ? binaryFrame(Buffer.from(message.slice(1), 'base64')) : textFrame(message.slice(1));
    for (const socket of entry.members) socket.sendFrame(frame);
  }
}

/** Store values are strings: a text frame travels as `t…`, a binary one as `b` + base64. */
function encode(data: unknown): string {
  if (typeof data === 'string') return `t${data}`;
  if (Buffer.isBuffer(data)) return `b${data.toString('base64')}`;
  const text = JSON.stringify(data);
  if (text === undefined) throw new TernTypeError('TERN_INVALID_ARGUMENT', `app.publish() cannot send ${typeof data} (a string, a Buffer or a JSON value).`);
  return `t${text}`;
}

function checkRoom(room: unknown, where: string): void {
  if (typeof room !== 'string' || room === '' || room.length > MAX_ROOM_NAME) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `${where} expects a room name: a non-empty string of at most ${MAX_ROOM_NAME} characters.`);
  }
}
