/**
 * What hostile or broken WebSocket clients get: no socket without security, frames over the
 * limit however they are cut, protocol garbage closed with its code, and nothing they send
 * reaches the 101's headers.
 */
import { connect as rawConnect } from 'node:net';
import { APIKey, enforceSecurity, TernApp } from '@tern/core';
import { connect, refusedUpgrade, servedSockets } from '../../../test-support/ws-client';

const serve = servedSockets();

/** Opens a raw TCP connection, completes a handshake by hand, then writes `frames`; resolves with what came back. */
function rawSocket(base: string, path: string, frames: Buffer): Promise<Buffer> {
  const { hostname, port } = new URL(base.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = rawConnect(Number(port), hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
      );
      setTimeout(() => socket.write(frames), 50);
    });
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
    socket.on('error', reject);
  });
}

/** The close code of the first close frame (opcode 8) the server sent after its 101. */
function closeCodeIn(bytes: Buffer): number | undefined {
  const start = bytes.indexOf('\r\n\r\n') + 4;
  for (let at = start; at < bytes.length; ) {
    const opcode = bytes[at] & 0x0f;
    let length = bytes[at + 1] & 0x7f;
    let offset = at + 2;
    if (length === 126) {
      length = bytes.readUInt16BE(offset);
      offset += 2;
    }
    if (opcode === 8) return bytes.readUInt16BE(offset);
    at = offset + length;
  }
  return undefined;
}

describe('hostile WebSocket clients', () => {
  it('an upgrade without credentials, or with a wrong key, never gets a socket: open never runs', async () => {
    const app = new TernApp({ logger: false });
    app.openapiConfig.addSecurityScheme('ticket', new APIKey({ name: 'ticket', in: 'query' }));
    app.addMiddleware(enforceSecurity(app, { ticket: async (ticket) => (ticket === 'good' ? { id: 1 } : null) }));
    let opened = 0;
    app.ws('/private/{id:int}', { security: [{ ticket: [] }] }, { open: () => void opened++ });
    const base = await serve(app);
    for (const path of ['/private/1', '/private/1?ticket=bad', '/private/1?ticket=', '/private/abc', '/private/abc?ticket=bad']) {
      expect((await refusedUpgrade(`${base}${path}`)).status).toBe(401);
    }
    expect(opened).toBe(0);
    await connect(`${base}/private/1?ticket=good`);
    expect(opened).toBe(1);
  });

  it('a message over maxPayload cut into fragments each under it is still closed with 1009', async () => {
    const app = new TernApp({ logger: false, websocket: { maxPayload: 1000 } });
    let messages = 0;
    app.ws('/s', {}, { message: () => void messages++ });
    const base = await serve(app);
    const client = await connect(`${base}/s`);
    for (let i = 0; i < 5; i++) client.ws.send('x'.repeat(400), { fin: i === 4 });
    expect((await client.closed).code).toBe(1009);
    expect(messages).toBe(0);
  });

  it('protocol garbage (an unmasked client frame, invalid UTF-8 text) is closed with its code; the app serves on', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/s', {}, { message: (socket, data) => socket.send(data) });
    const base = await serve(app);
    const unmasked = Buffer.from([0x81, 0x02, 0x68, 0x69]);
    expect(closeCodeIn(await rawSocket(base, '/s', unmasked))).toBe(1002);
    const mask = [1, 2, 3, 4];
    const badUtf8 = Buffer.from([0x81, 0x82, ...mask, 0xc3 ^ 1, 0x28 ^ 2]);
    expect(closeCodeIn(await rawSocket(base, '/s', badUtf8))).toBe(1007);
    const fine = await connect(`${base}/s`);
    fine.ws.send('still serving');
    expect(await fine.next()).toBe('still serving');
  });

  it('a header value with a line break never reaches the 101 (no header injection); it is reported', async () => {
    const reported: string[] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => void reported.push(args.map(String).join(' ')) } });
    app.addMiddleware(async (req, res, next) => {
      const response = await next();
      response.headers['x-echo'] = `${req.queryParams.get('v', '')}`;
      return response;
    });
    app.ws('/s', {}, {});
    const base = await serve(app);
    const client = await connect(`${base}/s?v=${encodeURIComponent('a\r\nSet-Cookie: stolen=1')}`);
    expect(client.handshake.headers['set-cookie']).toBeUndefined();
    expect(client.handshake.headers['x-echo']).toBeUndefined();
    expect(reported.join('\n')).toContain("'x-echo'");
    const plain = await connect(`${base}/s?v=fine`);
    expect(plain.handshake.headers['x-echo']).toBe('fine');
  });

  it('an upgrade whose client resets the connection mid-handshake does not crash the process', async () => {
    const app = new TernApp({ logger: false });
    app.addMiddleware(async (req, res, next) => {
      await new Promise((resolve) => setTimeout(resolve, 30));
      return next();
    });
    app.ws('/s', {}, {});
    const base = await serve(app);
    const { hostname, port } = new URL(base.replace(/^ws/, 'http'));
    await new Promise<void>((resolve) => {
      const socket = rawConnect(Number(port), hostname, () => {
        socket.write('GET /s HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n');
        setTimeout(() => {
          socket.resetAndDestroy();
          resolve();
        }, 5);
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await (await connect(`${base}/s`)).ws.readyState).toBe(1);
  });
});
