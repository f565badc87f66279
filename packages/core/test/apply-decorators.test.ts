/**
 * `applyDecorators(...)`: one decorator made of several (`@Authenticated()` written once), the
 * same as writing them one above the other, on methods and on controller classes.
 */
import 'reflect-metadata';
import { APIKey, ApiResponse, applyDecorators, Controller, Get, HTTPBearer, Security, Tags, TernApp, UseMiddleware, type Middleware } from '@tern/core';

const Authenticated = () => applyDecorators(Security('bearerAuth'), ApiResponse(401, { description: 'Not signed in' }), Tags('account'));

function appWith(controller: Function): TernApp {
  const app = new TernApp();
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
  app.registerControllers([controller]);
  return app;
}

describe('applyDecorators', () => {
  it('applies every part to a route method', async () => {
    @Controller('/user')
    class UserController {
      @Get('/')
      @Authenticated()
      async current() { return {}; }
    }
    const operation = (await appWith(UserController).inject('/openapi.json')).json().paths['/user'].get;
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
    expect(operation.tags).toEqual(['account']);
    expect(operation.responses['401'].description).toBe('Not signed in');
  });

  it('keeps the order they are listed in, as if written top to bottom, among decorators around it', async () => {
    const log: string[] = [];
    const trace = (label: string): Middleware => async (req, res, next) => (log.push(label), next());
    const Either = () => applyDecorators(Security('bearerAuth'), Security({}), UseMiddleware(trace('second'), trace('third')));
    @Controller('/a')
    class A {
      @Get('/')
      @UseMiddleware(trace('first'))
      @Either()
      @UseMiddleware(trace('fourth'))
      @Security('apiKey')
      async a() { return {}; }
    }
    const app = appWith(A);
    const [route] = app.getAllRoutes();
    expect(route.security).toEqual([{ bearerAuth: [] }, {}, { apiKey: [] }]);
    expect((await app.inject('/a')).statusCode).toBe(200);
    expect(log).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('works on a controller class, for every route', () => {
    @Authenticated()
    @Controller('/settings')
    class Settings {
      @Get('/')
      async get() { return {}; }
    }
    const [route] = appWith(Settings).getAllRoutes();
    expect([route.security, route.tags]).toEqual([[{ bearerAuth: [] }], ['account']]);
  });

  it('composes: a composed decorator can be a part of another', () => {
    const Admin = () => applyDecorators(Authenticated(), Tags('admin'));
    @Controller('/admin')
    class AdminController {
      @Get('/')
      @Admin()
      async get() { return {}; }
    }
    expect(appWith(AdminController).getAllRoutes()[0].tags).toEqual(['account', 'admin']);
  });

  it('refuses something that is not a decorator, when it is built', () => {
    expect(() => applyDecorators(Security('bearerAuth'), 'Tags' as never)).toThrow(
      expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE', message: expect.stringContaining('argument 2 is not a decorator') }),
    );
  });
});
