import { TernApp, type TernSocket } from '@tern/core';
import type { TernStore } from '../src/store/store';
import { connect, servedSockets } from '../../../test-support/ws-client';

const serve = servedSockets();

/**
 * A TernStore two apps in one process share, standing in for a shared Redis (websocket-redis.test.ts
 * runs on a real one); its publish/subscribe, delivered a turn later as Redis does, is all rooms use.
 */
function sharedStore(): TernStore & { channels: Map<string, Set<(message: string) => void>> } {
  const channels = new Map<string, Set<(message: string) => void>>();
  const unused = () => Promise.reject(new Error('not used by rooms'));
  return {
    channels,
    increment: unused,
    get: unused,
    set: unused,
    delete: unused,
    ping: async () => undefined,
    close: async () => undefined,
    async publish(channel, message) {
      for (const listener of [...(channels.get(channel) ?? [])]) setImmediate(listener, message);
    },
    async subscribe(channel, listener) {
      let set = channels.get(channel);
      if (!set) channels.set(channel, (set = new Set()));
      set.add(listener);
      return async () => {
        set.delete(listener);
        if (set.size === 0) channels.delete(channel);
      };
    },
  };
}

/** An app whose sockets join the room named in the path and publish what they receive to it. */
function roomApp(store?: TernStore): TernApp {
  const app = new TernApp({ logger: false, store });
  app.ws('/rooms/{name}', {}, {
    async open(socket, req) {
      await socket.join(req.pathParams.name);
      socket.send('joined');
    },
    async message(socket: TernSocket, data, req) {
      if (data === 'leave') {
        await socket.leave(req.pathParams.name);
        socket.send('left');
        return;
      }
      await app.publish(req.pathParams.name, { from: socket.id, text: data });
    },
  });
  app.post('/rooms/{name}/notices', async (req) => {
    await app.publish(req.pathParams.name, await req.text());
    return { sent: true };
  });
  return app;
}

async function joined(url: string) {
  const client = await connect(url);
  expect(await client.next()).toBe('joined');
  return client;
}

describe('rooms', () => {
  it('a publish reaches every socket in the room, and only those', async () => {
    const base = await serve(roomApp());
    const [a, b, other] = [await joined(`${base}/rooms/lobby`), await joined(`${base}/rooms/lobby`), await joined(`${base}/rooms/kitchen`)];
    other.ws.send('in the kitchen');
    a.ws.send('hello lobby');
    const fromA = { text: 'hello lobby' };
    expect(await a.nextJson()).toMatchObject(fromA);
    expect(await b.nextJson()).toMatchObject(fromA);
    expect(await other.nextJson()).toMatchObject({ text: 'in the kitchen' });
  });

  it('app.publish from an HTTP route reaches the room; text stays text, a Buffer goes binary', async () => {
    const app = roomApp();
    const base = await serve(app);
    const a = await joined(`${base}/rooms/news`);
    const response = await app.inject({ method: 'POST', url: '/rooms/news/notices', payload: 'extra edition', headers: { 'content-type': 'text/plain' } });
    expect(response.json()).toEqual({ sent: true });
    expect(await a.next()).toBe('extra edition');
    await app.publish('news', Buffer.from([7, 8]));
    expect(await a.next()).toEqual(Buffer.from([7, 8]));
  });

  it('one frame built for the room reaches every member whole, large text and binary alike', async () => {
    const app = roomApp();
    const base = await serve(app);
    const members = [await joined(`${base}/rooms/big`), await joined(`${base}/rooms/big`), await joined(`${base}/rooms/big`)];
    const text = 'ß'.repeat(40_000);
    const bytes = Buffer.alloc(70_000, 9);
    await app.publish('big', text);
    await app.publish('big', bytes);
    for (const member of members) {
      expect(await member.next()).toBe(text);
      expect(await member.next()).toEqual(bytes);
    }
  });

  it('a socket that left, or closed, gets nothing more; the room is gone when empty', async () => {
    const store = sharedStore();
    const app = roomApp(store);
    const base = await serve(app);
    const stays = await joined(`${base}/rooms/r`);
    const leaves = await joined(`${base}/rooms/r`);
    leaves.ws.send('leave');
    expect(await leaves.next()).toBe('left');
    await app.publish('r', 'one');
    expect(await stays.next()).toBe('one');
    stays.ws.close();
    await stays.closed;
    for (let i = 0; i < 100 && store.channels.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.channels.size).toBe(0);
    await app.publish('r', 'two');
    const nothing = new Promise((resolve) => setTimeout(resolve, 100, 'nothing'));
    expect(await Promise.race([leaves.next(), nothing])).toBe('nothing');
  });

  it('with a shared store, a publish in one app reaches the room’s sockets in the other', async () => {
    const store = sharedStore();
    const [one, two] = [roomApp(store), roomApp(store)];
    const [baseOne, baseTwo] = [await serve(one), await serve(two)];
    const onOne = await joined(`${baseOne}/rooms/shared`);
    const onTwo = await joined(`${baseTwo}/rooms/shared`);
    onOne.ws.send('across');
    expect(await onTwo.nextJson()).toMatchObject({ text: 'across' });
    expect(await onOne.nextJson()).toMatchObject({ text: 'across' });
    await two.publish('shared', 'back');
    expect(await onOne.next()).toBe('back');
  });

  it('refuses a room name that is not a non-empty string', async () => {
    const app = roomApp();
    await expect(app.publish('', 'x')).rejects.toMatchObject({ code: 'TERN_INVALID_ARGUMENT' });
    await expect(app.publish('r', undefined)).rejects.toMatchObject({ code: 'TERN_INVALID_ARGUMENT' });
  });
});
