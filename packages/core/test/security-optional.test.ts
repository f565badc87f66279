/**
 * Optional authentication with the decorator: `@Security('bearerAuth') @Security({})` reads the
 * credential when one is sent (req.user is the reader) and lets anonymous requests through.
 */
import 'reflect-metadata';
import { Controller, enforceSecurity, Get, HTTPBearer, Req, Security, TernApp, TernRequest } from '@tern/core';

const readers: Record<string, { username: string }> = { 'jake-token': { username: 'jake' } };

@Controller('/articles', { tags: ['articles'] })
class ArticlesController {
  @Get('/{slug}')
  @Security('bearerAuth')
  @Security({})
  async get(@Req() req: TernRequest) {
    return { favorited: req.user !== undefined, reader: (req.user as { username: string } | undefined)?.username ?? null };
  }

  /** `{}` written first: credentials are still read, anonymous is still the last resort. */
  @Get('/{slug}/comments')
  @Security({})
  @Security('bearerAuth')
  async comments(@Req() req: TernRequest) {
    return { reader: (req.user as { username: string } | undefined)?.username ?? null };
  }
}

@Controller('/feed')
@Security('bearerAuth')
@Security({})
class FeedController {
  @Get('/')
  async feed(@Req() req: TernRequest) {
    return { reader: (req.user as { username: string } | undefined)?.username ?? null };
  }
}

function buildApp(): TernApp {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
  app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token) => readers[token] ?? null }));
  app.registerControllers([ArticlesController, FeedController]);
  return app;
}

const asJake = { authorization: 'Bearer jake-token' };

describe('@Security({}): optional authentication', () => {
  it('makes the signed-in reader req.user, and lets an anonymous reader through', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/articles/dragons', headers: asJake })).json()).toEqual({ favorited: true, reader: 'jake' });
    expect((await app.inject('/articles/dragons')).json()).toEqual({ favorited: false, reader: null });
  });

  it('reads the credential even when {} is written before the other requirement', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/articles/dragons/comments', headers: asJake })).json()).toEqual({ reader: 'jake' });
    expect((await app.inject('/articles/dragons/comments')).json()).toEqual({ reader: null });
  });

  it('works on the class, for every route', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/feed', headers: asJake })).json()).toEqual({ reader: 'jake' });
    expect((await app.inject('/feed')).json()).toEqual({ reader: null });
  });

  it('treats a refused token as no credential: the reader is anonymous (OpenAPI semantics of {})', async () => {
    const app = buildApp();
    expect((await app.inject({ url: '/articles/dragons', headers: { authorization: 'Bearer expired' } })).json()).toEqual({ favorited: false, reader: null });
  });

  it('documents both alternatives, {} as OpenAPI writes it, and no 401 for the route', async () => {
    const document = (await buildApp().inject('/openapi.json')).json();
    const operation = document.paths['/articles/{slug}'].get;
    expect(operation.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(document.paths['/articles/{slug}/comments'].get.security).toEqual([{}, { bearerAuth: [] }]);
    expect(document.paths['/feed'].get.security).toEqual([{ bearerAuth: [] }, {}]);
    expect(operation.responses).not.toHaveProperty('401');
  });
});
