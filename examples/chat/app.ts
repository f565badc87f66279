/**
 * A chat: sign in with a name (POST /sign-in gives a signed token), open a socket to a room
 * (`/rooms/{room:slug}?token=…`: browsers cannot set headers on a WebSocket, so the token rides in
 * the query, checked by enforceSecurity before any 101), send `{ text }` frames checked by a
 * message model, and every socket in the room, in every process sharing the store, gets them.
 * GET / is a page that does all of it; GET /me says whose a token is; GET /asyncapi.json
 * describes the socket.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { APIKey, enforceSecurity, TernApp, type TernStore } from '@tern/core';
import { IsString, Length, Matches } from 'class-validator';
import { exampleOpenAPI } from '../shared/openapi';

/** What a client sends in a room. */
export class ChatMessage {
  @IsString()
  @Length(1, 500)
  text!: string;
}

/** The sign-in form. */
export class SignIn {
  @IsString()
  @Length(1, 32)
  @Matches(/^[\p{L}\p{N} _.-]+$/u, { message: 'name may hold letters, digits, spaces, _ . -' })
  name!: string;
}

export interface ChatOptions {
  /**
   * Signs the tokens: every process of one deployment needs the same (32+ random characters).
   * Default: `CHAT_SECRET`, else a random one for this process.
   */
  secret?: string;
  /** A store shared by the processes (redisStore) so rooms span them; default: this process only. */
  store?: TernStore;
}

/** `name.signature`, both base64url: anyone can read the name, nobody can change it. */
function sign(name: string, secret: string): string {
  const payload = Buffer.from(name, 'utf8').toString('base64url');
  return `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
}

function verify(token: string, secret: string): { name: string } | null {
  const [payload, signature] = token.split('.');
  if (!payload || !signature) return null;
  const expected = Buffer.from(createHmac('sha256', secret).update(payload).digest('base64url'));
  const given = Buffer.from(signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { name: Buffer.from(payload, 'base64url').toString('utf8') };
}

export function buildApp(given: ChatOptions = {}): TernApp {
  const options = { ...given, secret: given.secret ?? process.env.CHAT_SECRET ?? randomBytes(32).toString('hex') };
  const app = new TernApp({
    store: options.store,
    openapi: exampleOpenAPI({ title: 'Chat', description: 'Rooms over WebSockets; the sockets are described at /asyncapi.json.', tags: [{ name: 'chat', description: 'Signing in and talking in rooms.' }] }),
  });
  app.openapiConfig.addSecurityScheme('token', new APIKey({ name: 'token', in: 'query', description: 'The token POST /sign-in gives.' }));
  app.addMiddleware(enforceSecurity(app, { token: async (token) => verify(token, options.secret) }));

  app.post(
    '/sign-in',
    { requestModel: SignIn, tags: ['chat'], summary: 'Get a chat token', description: 'A signed token carrying the name, for /me and the rooms.', responses: { 200: { token: String } } },
    async (req) => ({ token: sign((req.body as SignIn).name, options.secret) }),
  );
  app.get(
    '/me',
    { security: [{ token: [] }], tags: ['chat'], summary: 'Who the token says', description: 'The name a token was signed for.', responses: { 200: { name: String } } },
    async (req) => ({ name: (req.user as { name: string }).name }),
  );

  app.ws('/rooms/{room:slug}', { security: [{ token: [] }], messageModel: ChatMessage, tags: ['chat'], summary: 'A chat room' }, {
    async open(socket, req) {
      // Which process serves this socket: with several workers, the room spans them all.
      socket.send({ event: 'welcome', room: req.pathParams.room, worker: process.pid });
      await socket.join(req.pathParams.room);
      await app.publish(req.pathParams.room, { event: 'joined', name: (req.user as { name: string }).name });
    },
    message: (socket, data, req) => app.publish(req.pathParams.room, { event: 'message', name: (req.user as { name: string }).name, text: data.text }),
  });

  app.get('/', { excludeFromSchema: true }, async (req, res) => res.html(PAGE));
  return app;
}

/** The page: sign in, join a room, talk. Everything it shows is set as text, never as HTML. */
const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Tern chat</title></head>
<body>
  <form id="join"><input id="name" placeholder="your name" required> <input id="room" value="lobby" required> <button>Join</button></form>
  <ul id="log"></ul>
  <form id="say" hidden><input id="text" autocomplete="off" required> <button>Send</button></form>
  <script>
    const log = document.getElementById('log');
    const show = (line) => { const li = document.createElement('li'); li.textContent = line; log.append(li); };
    let socket;
    document.getElementById('join').addEventListener('submit', async (event) => {
      event.preventDefault();
      const response = await fetch('/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: document.getElementById('name').value }) });
      if (!response.ok) return show('sign-in refused: ' + response.status);
      const { token } = await response.json();
      const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
      socket = new WebSocket(scheme + '//' + location.host + '/rooms/' + encodeURIComponent(document.getElementById('room').value) + '?token=' + encodeURIComponent(token));
      socket.addEventListener('open', () => { document.getElementById('say').hidden = false; document.body.dataset.state = 'open'; });
      socket.addEventListener('message', (message) => {
        const data = JSON.parse(message.data);
        if (data.event === 'welcome') show('in room ' + data.room + ' (served by process ' + data.worker + ')');
        else if (data.event === 'joined') show(data.name + ' joined');
        else if (data.event === 'message') show(data.name + ': ' + data.text);
        else show('error ' + data.status + ': ' + data.detail);
      });
      socket.addEventListener('close', (event) => { document.body.dataset.state = 'closed'; show('closed (' + event.code + ')'); });
    });
    document.getElementById('say').addEventListener('submit', (event) => {
      event.preventDefault();
      const input = document.getElementById('text');
      socket.send(JSON.stringify({ text: input.value }));
      input.value = '';
    });
  </script>
</body>
</html>`;
