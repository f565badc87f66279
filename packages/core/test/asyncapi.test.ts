import 'reflect-metadata';
import { APIKey, HTTPBearer, OAuth2, TernApp } from '@tern/core';
import { checkContract } from '@tern/core/testing';
import { Parser } from '@asyncapi/parser';
import { IsInt, IsOptional, IsString, Length, ValidateNested, IsObject } from 'class-validator';
import { Type } from 'class-transformer';

class Author {
  @IsString()
  name!: string;
}

class ChatMessage {
  @IsString()
  @Length(1, 200)
  text!: string;

  @IsOptional()
  @IsInt()
  priority?: number;

  @IsObject()
  @ValidateNested()
  @Type(() => Author)
  author!: Author;
}

function realtimeApp(): TernApp {
  const app = new TernApp({ logger: false, openapi: { title: 'Chat', version: '2.1.0' } });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
  app.openapiConfig.addSecurityScheme('ticket', new APIKey({ name: 'ticket', in: 'query' }));
  app.openapiConfig.addSecurityScheme(
    'oauth2',
    new OAuth2({ flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { chat: 'Chat in rooms' } } } }),
  );
  app.ws('/rooms/{id:int}', { summary: 'A chat room', tags: ['chat'], messageModel: ChatMessage, security: [{ bearerAuth: [] }, { ticket: [] }] }, {});
  app.ws('/feeds/{slug:slug}/live', { security: [{ oauth2: ['chat'] }], name: 'feed' }, {});
  app.ws('/hidden', { excludeFromSchema: true } as never, {});
  app.get('/health', async () => ({ ok: true }));
  return app;
}

async function parse(document: unknown) {
  const parser = new Parser();
  const { document: parsed, diagnostics } = await parser.parse(JSON.stringify(document));
  return { parsed, errors: diagnostics.filter((d) => d.severity === 0).map((d) => `${d.path.join('.')}: ${d.message}`) };
}

describe('GET /asyncapi.json', () => {
  it('is a valid AsyncAPI 3.0 document of the app’s sockets', async () => {
    const app = realtimeApp();
    const response = await app.inject('/asyncapi.json');
    expect(response.statusCode).toBe(200);
    const document = response.json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const { parsed, errors } = await parse(document);
    expect(errors).toEqual([]);
    expect(parsed?.version()).toBe('3.0.0');
    expect(document.info).toEqual({ title: 'Chat', version: '2.1.0' });
    expect(Object.keys(document.channels)).toEqual(['rooms-id', 'feed']);
  });

  it('gives each socket route a channel with its address, parameters and message payload from messageModel', async () => {
    const document = (await realtimeApp().inject('/asyncapi.json')).json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const room = document.channels['rooms-id'];
    expect(room.address).toBe('/rooms/{id}');
    expect(Object.keys(room.parameters)).toEqual(['id']);
    expect(room.messages.ChatMessage.payload).toEqual({ $ref: '#/components/schemas/ChatMessage' });
    expect(document.components.schemas.ChatMessage).toMatchObject({
      type: 'object',
      properties: { text: { type: 'string', minLength: 1, maxLength: 200 }, priority: { type: ['integer', 'null'] }, author: { $ref: '#/components/schemas/Author' } },
      required: expect.arrayContaining(['text', 'author']),
    });
    expect(document.channels.feed.address).toBe('/feeds/{slug}/live');
    expect(document.channels.feed.messages.frame.payload).toEqual({ type: 'string' });
  });

  it('carries each route’s summary, tags and security onto its receive operation', async () => {
    const document = (await realtimeApp().inject('/asyncapi.json')).json() as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const { parsed } = await parse(document);
    const operation = document.operations['receive-rooms-id'];
    expect(operation).toMatchObject({ action: 'receive', summary: 'A chat room', tags: [{ name: 'chat' }], channel: { $ref: '#/channels/rooms-id' } });
    expect(operation.security).toEqual([{ $ref: '#/components/securitySchemes/bearerAuth' }, { $ref: '#/components/securitySchemes/ticket' }]);
    expect(document.components.securitySchemes).toEqual({
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      ticket: { type: 'httpApiKey', name: 'ticket', in: 'query' },
      oauth2: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', availableScopes: { chat: 'Chat in rooms' } } } },
    });
    expect(document.operations['receive-feed'].security).toEqual([expect.objectContaining({ type: 'oauth2', scopes: ['chat'] })]);
    const parsedOperation = parsed?.operations().all().find((op) => op.id() === 'receive-rooms-id');
    expect(parsedOperation?.security().length).toBe(2);
  });

  it('is not served by an app without socket routes, nor with documents turned off', async () => {
    const plain = new TernApp({ logger: false });
    plain.get('/x', async () => ({}));
    expect((await plain.inject('/asyncapi.json')).statusCode).toBe(404);
    const quiet = new TernApp({ logger: false, openapi: { openapiPath: false } });
    quiet.ws('/s', {}, {});
    expect((await quiet.inject('/asyncapi.json')).statusCode).toBe(404);
  });

  it('sits under the app’s prefix', async () => {
    const app = new TernApp({ logger: false, prefix: '/api' });
    app.ws('/s', {}, {});
    const document = (await app.inject('/api/asyncapi.json')).json() as { channels: Record<string, { address: string }> };
    expect(Object.values(document.channels).map((c) => c.address)).toEqual(['/api/s']);
  });

  it('leaves socket routes out of checkContract, which checks the HTTP routes only', async () => {
    const app = new TernApp({ logger: false });
    app.ws('/live', {}, {});
    app.get('/health', async () => ({ ok: true }));
    const reports = await checkContract(app, { runs: 5 });
    expect(reports.map((report) => report.operation)).toEqual(['GET /health']);
  });
});
