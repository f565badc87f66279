/**
 * A socket route's `messageModel` given as a Standard Schema (zod, and a hand-made one), over a
 * real socket: frames are validated by the library, `message` gets its output, refusals are error
 * frames with the same statuses and dotted paths as request bodies; the AsyncAPI document
 * describes the payload from `~standard.jsonSchema.input`.
 */
import 'reflect-metadata';
import { Controller, TernApp, WebSocket, type SocketHandlers, type StandardSchemaV1 } from '@tern/core';
import { Parser } from '@asyncapi/parser';
import { z } from 'zod';
import { connect, servedSockets } from '../../../../test-support/ws-client';

const serve = servedSockets();

const ChatLine = z.object({
  text: z.string().trim().min(1),
  priority: z.number().int().min(0).default(0),
  author: z.object({ name: z.string() }),
  tags: z.array(z.string()).optional(),
});

function zodApp(): TernApp {
  const app = new TernApp({ logger: false });
  app.ws('/chat', { messageModel: ChatLine }, {
    message(socket, data) {
      socket.send({ data, upper: data.text.toUpperCase() });
    },
  });
  return app;
}

/**
 * Accepts `{ n: <number> }` and answers `{ doubled }`, after a tick: an async `validate`. With
 * `describe`, it also implements Standard JSON Schema.
 */
function doublingSchema(describe = true): StandardSchemaV1<unknown, { doubled: number }> & { calls: number } {
  const jsonSchema = {
    input: () => ({ $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }),
    output: () => ({ type: 'object', properties: { doubled: { type: 'number' } }, required: ['doubled'] }),
  };
  const schema = {
    calls: 0,
    '~standard': {
      version: 1 as const,
      vendor: 'hand-made',
      ...(describe ? { jsonSchema } : {}),
      async validate(value: unknown): Promise<StandardSchemaV1.Result<{ doubled: number }>> {
        schema.calls++;
        await new Promise((resolve) => setImmediate(resolve));
        const n = (value as { n?: unknown } | null)?.n;
        if (typeof n !== 'number') return { issues: [{ message: 'n must be a number', path: [{ key: 'n' }] }] };
        return { value: { doubled: n * 2 } };
      },
    },
  };
  return schema;
}

describe('messageModel as a Standard Schema', () => {
  it("hands the handler zod's output (trimmed, defaults applied, unknown keys stripped)", async () => {
    const client = await connect(`${await serve(zodApp())}/chat`);
    client.ws.send(JSON.stringify({ text: '  hi  ', author: { name: 'ann' }, extra: 1 }));
    expect(await client.nextJson()).toEqual({ data: { text: 'hi', priority: 0, author: { name: 'ann' } }, upper: 'HI' });
  });

  it('answers a refused frame with 422 and dotted-path field errors, and the socket stays open', async () => {
    const client = await connect(`${await serve(zodApp())}/chat`);
    client.ws.send(JSON.stringify({ text: ' ', priority: -1, author: { name: 3 }, tags: ['a', 2] }));
    const problem = await client.nextJson<{ status: number; code: string; instance: string; errors: Array<{ path: string; message: string }> }>();
    expect(problem).toMatchObject({ status: 422, code: 'TERN_VALIDATION_FAILED', instance: '/chat', detail: 'The message failed validation.' });
    expect(problem.errors.map((e) => e.path).sort()).toEqual(['author.name', 'priority', 'tags.1', 'text']);
    expect(problem.errors.every((e) => typeof e.message === 'string' && e.message !== '')).toBe(true);
    client.ws.send(JSON.stringify({ text: 'after', author: { name: 'bo' } }));
    expect(await client.nextJson()).toMatchObject({ upper: 'AFTER' });
  });

  it('answers a frame that is not JSON with 400, and the socket stays open', async () => {
    const client = await connect(`${await serve(zodApp())}/chat`);
    client.ws.send('not json {');
    expect(await client.nextJson()).toMatchObject({ status: 400, code: 'TERN_INVALID_JSON', detail: expect.stringMatching(/^The message is not valid JSON/) });
    client.ws.send(JSON.stringify({ text: 'ok', author: { name: 'cy' } }));
    expect(await client.nextJson()).toMatchObject({ upper: 'OK' });
  });

  it('awaits an async validate, keeps frames in order, and names valibot-style path segments', async () => {
    const schema = doublingSchema();
    const app = new TernApp({ logger: false });
    app.ws('/double', { messageModel: schema }, { message: (socket, data) => socket.send(data) });
    const client = await connect(`${await serve(app)}/double`);
    client.ws.send(JSON.stringify({ n: 1 }));
    client.ws.send(JSON.stringify({ n: 'x' }));
    client.ws.send(JSON.stringify({ n: 3 }));
    expect(await client.nextJson()).toEqual({ doubled: 2 });
    expect(await client.nextJson()).toMatchObject({ status: 422, errors: [{ path: 'n', message: 'n must be a number' }] });
    expect(await client.nextJson()).toEqual({ doubled: 6 });
    expect(schema.calls).toBe(3);
  });

  it('takes a Standard Schema that is a function (as arktype types are) as a schema, not as a class', async () => {
    const inner = doublingSchema(false);
    const callable = Object.assign(() => undefined, { '~standard': inner['~standard'] }) as unknown as StandardSchemaV1<unknown, { doubled: number }>;
    const app = new TernApp({ logger: false });
    // Undocumented, as the error for a schema that cannot describe itself advises.
    app.ws('/double', { messageModel: callable, excludeFromSchema: true }, { message: (socket, data) => socket.send(data) });
    const client = await connect(`${await serve(app)}/double`);
    client.ws.send(JSON.stringify({ n: 4 }));
    expect(await client.nextJson()).toEqual({ doubled: 8 });
  });

  it('works in a controller: @WebSocket(path, { messageModel: schema })', async () => {
    @Controller('/rooms')
    class RoomsController {
      @WebSocket('/{id:int}/live', { messageModel: ChatLine })
      live(): SocketHandlers<z.output<typeof ChatLine>> {
        return { message: (socket, data) => socket.send({ said: data.text, priority: data.priority }) };
      }
    }
    const app = new TernApp({ logger: false });
    app.registerControllers([RoomsController]);
    const client = await connect(`${await serve(app)}/rooms/1/live`);
    client.ws.send(JSON.stringify({ text: ' yo ', author: { name: 'di' } }));
    expect(await client.nextJson()).toEqual({ said: 'yo', priority: 0 });
    client.ws.send(JSON.stringify({ text: 'yo' }));
    expect(await client.nextJson()).toMatchObject({ status: 422, errors: [{ path: 'author' }] });
  });

  it('refuses at ready() a messageModel that is neither a class nor a Standard Schema', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/chat', { messageModel: { parse: () => ({}) } as never }, {});
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ROUTE_OPTION', message: expect.stringContaining('Standard Schema') });
  });
});

async function parse(document: unknown): Promise<string[]> {
  const { diagnostics } = await new Parser().parse(JSON.stringify(document));
  return diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`);
}

describe('AsyncAPI of a Standard Schema messageModel', () => {
  it('registers a named schema as a component from ~standard.jsonSchema.input, and inlines an unnamed one', async () => {
    const app = new TernApp({ logger: false, openapi: { title: 'Chat', version: '1.0.0' } });
    app.ws('/rooms/{id:int}', { messageModel: ChatLine.meta({ id: 'ChatLine' }) }, {});
    app.ws('/pings', { messageModel: z.object({ at: z.number().default(0) }) }, {});
    app.ws('/double', { messageModel: doublingSchema() }, {});
    const response = await app.inject('/asyncapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(await parse(document)).toEqual([]);
    expect(document.channels['rooms-id'].messages.ChatLine).toEqual({ name: 'ChatLine', contentType: 'application/json', payload: { $ref: '#/components/schemas/ChatLine' } });
    // The input side: priority has a default, so a sender may leave it out.
    expect(document.components.schemas.ChatLine).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1 }, priority: { type: 'integer', default: 0 }, author: { type: 'object' } },
      required: ['text', 'author'],
    });
    expect(document.components.schemas.ChatLine.$schema).toBeUndefined();
    expect(document.channels.pings.messages['pings-message'].payload).toMatchObject({ type: 'object', properties: { at: { type: 'number', default: 0 } } });
    expect(document.channels.double.messages['double-message'].payload).toEqual({ type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    expect(document.operations['receive-pings'].messages).toEqual([{ $ref: '#/channels/pings/messages/pings-message' }]);
  });

  it('fails ready() with a clear error when the schema cannot describe itself', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/double', { messageModel: doublingSchema(false) }, {});
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_INVALID_ARGUMENT', message: expect.stringContaining('a hand-made schema cannot describe itself') });
  });
});
