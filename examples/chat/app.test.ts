import { TernApp } from '@tern/core';
import { connect, refusedUpgrade } from '../../test-support/ws-client';
import { buildApp } from './app';

const secret = 'test-secret-that-is-long-enough-1234';

describe('examples/chat', () => {
  let app: TernApp;
  let base: string;

  beforeAll(async () => {
    app = buildApp({ secret });
    base = (await app.listen({ port: 0 })).replace(/^http/, 'ws');
  });

  afterAll(() => app.close());

  async function tokenFor(name: string): Promise<string> {
    const response = await app.inject({ method: 'POST', url: '/sign-in', payload: { name } });
    expect(response.statusCode).toBe(200);
    return (response.json() as { token: string }).token;
  }

  it('refuses a socket without a valid token with 401, before any 101', async () => {
    expect((await refusedUpgrade(`${base}/rooms/lobby`)).status).toBe(401);
    const forged = `${Buffer.from('Mallory').toString('base64url')}.${'x'.repeat(43)}`;
    expect((await refusedUpgrade(`${base}/rooms/lobby?token=${forged}`)).status).toBe(401);
  });

  it('says whose a token is at /me, and refuses a missing one', async () => {
    const token = await tokenFor('Ada');
    expect((await app.inject({ url: `/me?token=${token}` })).json()).toEqual({ name: 'Ada' });
    expect((await app.inject('/me')).statusCode).toBe(401);
  });

  it('refuses a sign-in whose name breaks the model with 422', async () => {
    expect((await app.inject({ method: 'POST', url: '/sign-in', payload: { name: '<script>' } })).statusCode).toBe(422);
  });

  it('relays messages to everyone in the room, with the signed-in name, and answers a bad frame with 422', async () => {
    const ada = await connect(`${base}/rooms/lobby?token=${await tokenFor('Ada')}`);
    expect(await ada.nextJson()).toEqual({ event: 'welcome', room: 'lobby', worker: process.pid });
    expect(await ada.nextJson()).toEqual({ event: 'joined', name: 'Ada' });
    const bob = await connect(`${base}/rooms/lobby?token=${await tokenFor('Bob')}`);
    expect(await bob.nextJson()).toMatchObject({ event: 'welcome' });
    expect(await bob.nextJson()).toEqual({ event: 'joined', name: 'Bob' });
    expect(await ada.nextJson()).toEqual({ event: 'joined', name: 'Bob' });
    bob.ws.send(JSON.stringify({ text: 'hi Ada' }));
    expect(await ada.nextJson()).toEqual({ event: 'message', name: 'Bob', text: 'hi Ada' });
    expect(await bob.nextJson()).toEqual({ event: 'message', name: 'Bob', text: 'hi Ada' });
    ada.ws.send(JSON.stringify({ text: '' }));
    expect(await ada.nextJson()).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED' });
    ada.ws.close();
    bob.ws.close();
  });

  it('describes its room socket at /asyncapi.json and its HTTP routes at /openapi.json', async () => {
    const asyncapi = (await app.inject('/asyncapi.json')).json() as { channels: Record<string, { address: string }> };
    expect(Object.values(asyncapi.channels).map((c) => c.address)).toEqual(['/rooms/{room}']);
    const openapi = (await app.inject('/openapi.json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toEqual(['/sign-in', '/me']);
  });
});
