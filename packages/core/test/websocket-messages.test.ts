import 'reflect-metadata';
import { TernApp } from '@tern/core';
import { IsInt, IsString, Length, Min } from 'class-validator';
import { connect, servedSockets } from '../../../test-support/ws-client';

class ChatMessage {
  @IsString()
  @Length(1, 200)
  text!: string;

  @IsInt()
  @Min(0)
  priority!: number;
}

const serve = servedSockets();

function chatApp(options: { forbidUnknownProperties?: boolean } = {}): TernApp {
  const app = new TernApp({ logger: false });
  app.ws('/chat', { messageModel: ChatMessage, ...options }, {
    message(socket, data) {
      socket.send({ instance: data instanceof ChatMessage, data });
    },
  });
  return app;
}

describe('messageModel: frames by contract', () => {
  it('hands the handler an instance of the model', async () => {
    const client = await connect(`${await serve(chatApp())}/chat`);
    client.ws.send(JSON.stringify({ text: 'hi', priority: 1, extra: 'dropped' }));
    expect(await client.nextJson()).toEqual({ instance: true, data: { text: 'hi', priority: 1 } });
  });

  it('answers a frame that is not JSON with an error frame of status 400, and the socket stays open', async () => {
    const client = await connect(`${await serve(chatApp())}/chat`);
    client.ws.send('not json {');
    expect(await client.nextJson()).toMatchObject({
      type: 'about:blank',
      status: 400,
      code: 'TERN_INVALID_JSON',
      instance: '/chat',
      detail: expect.stringMatching(/^The message is not valid JSON/),
    });
    client.ws.send(JSON.stringify({ text: 'after', priority: 2 }));
    expect(await client.nextJson()).toEqual({ instance: true, data: { text: 'after', priority: 2 } });
  });

  it('answers a frame the model refuses with 422 and the field errors, and the socket stays open', async () => {
    const client = await connect(`${await serve(chatApp())}/chat`);
    client.ws.send(JSON.stringify({ text: '', priority: -1 }));
    const problem = await client.nextJson<{ status: number; code: string; errors: Array<{ path: string }> }>();
    expect(problem).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED', title: 'Unprocessable Entity' });
    expect(problem.errors.map((e) => e.path).sort()).toEqual(['priority', 'text']);
    client.ws.send(JSON.stringify(null));
    expect(await client.nextJson()).toMatchObject({ status: 422 });
    client.ws.send(JSON.stringify({ text: 'ok', priority: 0 }));
    expect(await client.nextJson()).toMatchObject({ instance: true });
  });

  it('refuses prototype-poisoning keys and over-deep JSON with 400, as bodies are', async () => {
    const client = await connect(`${await serve(chatApp())}/chat`);
    client.ws.send('{"text":"x","priority":1,"__proto__":{"admin":true}}');
    expect(await client.nextJson()).toMatchObject({ status: 400, code: 'TERN_JSON_FORBIDDEN_KEY' });
    client.ws.send(`${'['.repeat(100)}${']'.repeat(100)}`);
    expect(await client.nextJson()).toMatchObject({ status: 400, code: 'TERN_JSON_TOO_DEEP' });
  });

  it('answers unknown properties 422 on a route with forbidUnknownProperties', async () => {
    const client = await connect(`${await serve(chatApp({ forbidUnknownProperties: true }))}/chat`);
    client.ws.send(JSON.stringify({ text: 'hi', priority: 1, extra: 'no' }));
    expect(await client.nextJson()).toMatchObject({ status: 422, errors: [expect.objectContaining({ path: 'extra' })] });
  });

  it('compiles the model at ready(): a model that is not a class fails startup', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/chat', { messageModel: 'ChatMessage' as never }, {});
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION' });
  });
});
