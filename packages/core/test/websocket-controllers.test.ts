import 'reflect-metadata';
import {
  Body,
  Controller,
  enforceSecurity,
  HTTPBearer,
  Param,
  Query,
  Req,
  Security,
  TernApp,
  UseMiddleware,
  User,
  WebSocket,
  type Middleware,
  type SocketHandlers,
  type TernRequest,
} from '@tern/core';
import { IsString } from 'class-validator';
import { connect, refusedUpgrade } from '../../../test-support/ws-client';

class Say {
  @IsString()
  text!: string;
}

const apps: TernApp[] = [];

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

const seen: string[] = [];
const controllerMiddleware: Middleware = async (req, res, next) => {
  seen.push(`controller ${req.route?.rawPath ?? ''}`);
  return req.headers.get('x-refuse') ? res.json({ refused: true }, 429) : next();
};

@Controller('/rooms', { middleware: [controllerMiddleware], tags: ['rooms'] })
@Security({ bearerAuth: [] })
class RoomsController {
  constructor(private readonly greeting: string) {}

  @WebSocket('/{id:int}/live', { messageModel: Say, summary: 'A room, live' })
  live(@Param('id') id: number, @User() user: { name: string }, @Req() req: TernRequest, @Query('lang') lang: string): SocketHandlers<Say> {
    return {
      open: (socket) => socket.send({ greeting: this.greeting, id, user: user.name, lang, path: req.url.path }),
      message: (socket, data) => socket.send({ said: data.text, by: user.name }),
    };
  }

  @WebSocket('/{id:int}/audited')
  @UseMiddleware(async (req, res, next) => {
    seen.push('method');
    return next();
  })
  audited(): SocketHandlers {
    return { open: (socket) => socket.send('audited') };
  }
}

async function serve(): Promise<{ app: TernApp; base: string }> {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => (token === 'ada' ? { name: 'Ada' } : null) }));
  app.registerControllers([new RoomsController('welcome')]);
  apps.push(app);
  return { app, base: (await app.listen({ port: 0 })).replace(/^http/, 'ws') };
}

const ada = { headers: { authorization: 'Bearer ada' } };

describe('@WebSocket on a controller method', () => {
  it('resolves the method’s parameters on the upgrade request and serves the handlers it returns', async () => {
    const { base } = await serve();
    const client = await connect(`${base}/rooms/7/live?lang=fr`, ada);
    expect(await client.nextJson()).toEqual({ greeting: 'welcome', id: 7, user: 'Ada', lang: 'fr', path: '/rooms/7/live' });
    client.ws.send(JSON.stringify({ text: 'bonjour' }));
    expect(await client.nextJson()).toEqual({ said: 'bonjour', by: 'Ada' });
    client.ws.send(JSON.stringify({ text: 5 }));
    expect(await client.nextJson()).toMatchObject({ status: 422 });
  });

  it('applies the controller’s security, middleware and the method’s own middleware before any 101', async () => {
    const { base } = await serve();
    expect((await refusedUpgrade(`${base}/rooms/7/live`)).status).toBe(401);
    expect((await refusedUpgrade(`${base}/rooms/7/live`, { headers: { ...ada.headers, 'x-refuse': '1' } })).status).toBe(429);
    expect((await refusedUpgrade(`${base}/rooms/x/live`, ada)).status).toBe(422);
    seen.length = 0;
    const client = await connect(`${base}/rooms/3/audited`, ada);
    expect(await client.next()).toBe('audited');
    expect(seen).toEqual(['controller /rooms/{id:int}/audited', 'method']);
  });

  it('lists the controller’s socket routes with their tags and security', async () => {
    const { app } = await serve();
    const live = app.getAllRoutes().find((route) => route.rawPath === '/rooms/{id:int}/live');
    expect(live).toMatchObject({ websocket: true, tags: ['rooms'], security: [{ bearerAuth: [] }] });
    expect(live?.options.messageModel).toBe(Say);
  });

  it('refuses a @Body() on a socket method when the app starts', async () => {
    @Controller('/bad')
    class Bad {
      @WebSocket('/')
      live(@Body() body: Say): SocketHandlers {
        return { open: () => void body };
      }
    }
    const app = new TernApp({ logger: false });
    app.registerControllers([Bad]);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_CONTROLLER_INVALID' });
  });

  it('refuses @WebSocket misuse when decorating', () => {
    expect(() => WebSocket(7 as never)).toThrow(expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE' }));
  });
});
