/**
 * Rooms across processes on a real Redis: two apps, each with its own redisStore connections,
 * share rooms. Needs REDIS_TEST_URL (.ci/run starts a redis-server); skips with the reason without.
 */
import { randomUUID } from 'node:crypto';
import { redisStore, TernApp } from '@tern/core';
import { connect } from '../../../test-support/ws-client';

const url = process.env.REDIS_TEST_URL;
if (!url) console.log('websocket-redis.test.ts skipped: REDIS_TEST_URL is not set (.ci/run starts redis-server and sets it).');
const describeWithRedis = url ? describe : describe.skip;

describeWithRedis('rooms on a shared Redis store', () => {
  const apps: TernApp[] = [];

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  function roomApp(): TernApp {
    const app = new TernApp({ logger: false, store: redisStore({ url: url as string }) });
    app.ws('/rooms/{name}', {}, {
      async open(socket, req) {
        await socket.join(req.pathParams.name);
        socket.send('joined');
      },
      message: (socket, data, req) => app.publish(req.pathParams.name, { text: data }),
    });
    apps.push(app);
    return app;
  }

  async function joined(base: string, room: string) {
    const client = await connect(`${base.replace(/^http/, 'ws')}/rooms/${room}`);
    expect(await client.next()).toBe('joined');
    return client;
  }

  it('a publish in one app reaches the room’s sockets in the other, and only that room’s', async () => {
    const [one, two] = [roomApp(), roomApp()];
    const [baseOne, baseTwo] = [await one.listen({ port: 0 }), await two.listen({ port: 0 })];
    const room = `r-${randomUUID()}`;
    const onOne = await joined(baseOne, room);
    const onTwo = await joined(baseTwo, room);
    const elsewhere = await joined(baseTwo, `${room}-other`);
    onOne.ws.send('from one');
    expect(await onTwo.nextJson()).toEqual({ text: 'from one' });
    expect(await onOne.nextJson()).toEqual({ text: 'from one' });
    await two.publish(room, Buffer.from([1, 2, 3]));
    expect(await onOne.next()).toEqual(Buffer.from([1, 2, 3]));
    expect(await onTwo.next()).toEqual(Buffer.from([1, 2, 3]));
    const nothing = new Promise((resolve) => setTimeout(resolve, 200, 'nothing'));
    expect(await Promise.race([elsewhere.next(), nothing])).toBe('nothing');
  });

  it('a socket that left gets nothing more from the other process', async () => {
    const [one, two] = [roomApp(), roomApp()];
    const [baseOne, baseTwo] = [await one.listen({ port: 0 }), await two.listen({ port: 0 })];
    const room = `r-${randomUUID()}`;
    const stays = await joined(baseOne, room);
    const leaves = await joined(baseTwo, room);
    leaves.ws.close();
    await leaves.closed;
    await two.publish(room, 'after');
    expect(await stays.next()).toBe('after');
  });
});
