import {
  Controller,
  Cookie,
  Delete,
  Get,
  Header,
  HTTPException,
  Param,
  Post,
  Query,
  Req,
  Res,
  TernApp,
  User,
  type TernRequest,
  type TernResponse,
} from '@tern/core';
import { IsInt, IsOptional, Min } from 'class-validator';

async function appWith(...controllers: Array<Function | object>): Promise<TernApp> {
  const app = new TernApp({ logger: false });
  app.registerControllers(controllers);
  await app.ready();
  return app;
}

describe('controller parameters', () => {
  describe('@Param', () => {
    @Controller('/p')
    class P {
      @Get('/num/{id}') async num(@Param('id') id: number) { return { id, type: typeof id }; }
      @Get('/int/{id:int}') async int(@Param('id') id: number) { return { id, type: typeof id }; }
      @Get('/str/{id:int}') async str(@Param('id') id: string) { return { id, type: typeof id }; }
      @Get('/bool/{flag}') async bool(@Param('flag') flag: boolean) { return { flag }; }
      @Get('/date/{day}') async date(@Param('day') day: Date) { return { year: day.getUTCFullYear() }; }
      @Get('/any/{value}') async any(@Param('value') value: unknown) { return { value }; }
      @Get('/two/{a}/{b}') async two(@Param('b') b: string, @Param('a') a: number) { return { a, b }; }
    }

    it('converts a plain {id} typed number and answers 422 naming it when it does not convert', async () => {
      const app = await appWith(P);
      expect((await app.inject('/p/num/42')).json()).toEqual({ id: 42, type: 'number' });
      expect((await app.inject('/p/num/-1.5')).json()).toEqual({ id: -1.5, type: 'number' });
      for (const bad of ['abc', '1x', '0x10', 'Infinity', '%20']) {
        const response = await app.inject(`/p/num/${bad}`);
        expect(response.statusCode).toBe(422);
        expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(response.json()).toMatchObject({
          status: 422,
          code: 'TERN_INVALID_PATH_PARAM',
          detail: "Path parameter 'id' must be a number.",
          errors: [{ path: 'id' }],
        });
      }
    });

    it('leaves a value its path converter already converted', async () => {
      const app = await appWith(P);
      expect((await app.inject('/p/int/7')).json()).toEqual({ id: 7, type: 'number' });
      expect((await app.inject('/p/int/x')).statusCode).toBe(422);
      expect((await app.inject('/p/str/7')).json()).toEqual({ id: '7', type: 'string' });
    });

    it('converts booleans, dates and passes untyped values through', async () => {
      const app = await appWith(P);
      expect((await app.inject('/p/bool/true')).json()).toEqual({ flag: true });
      expect((await app.inject('/p/bool/0')).json()).toEqual({ flag: false });
      expect((await app.inject('/p/bool/yes')).json()).toMatchObject({ errors: [{ path: 'flag' }] });
      expect((await app.inject('/p/date/2024-02-29')).json()).toEqual({ year: 2024 });
      expect((await app.inject('/p/date/2024-02-29T23:30:00-02:00')).json()).toEqual({ year: 2024 });
      expect((await app.inject('/p/date/2023-02-29')).statusCode).toBe(422);
      expect((await app.inject('/p/date/2024-13-01')).statusCode).toBe(422);
      expect((await app.inject('/p/date/yesterday')).json()).toMatchObject({ status: 422, errors: [{ path: 'day' }] });
      expect((await app.inject('/p/any/x%20y')).json()).toEqual({ value: 'x y' });
    });

    it('matches parameters by name, not by position', async () => {
      const app = await appWith(P);
      expect((await app.inject('/p/two/1/b')).json()).toEqual({ a: 1, b: 'b' });
    });
  });

  describe('@Query, @Header, @Cookie', () => {
    @Controller('/q')
    class Q {
      @Get('/')
      async list(
        @Query('page') page: number = 1,
        @Query('draft') draft: boolean,
        @Query('q') q: string,
        @Query('tags') tags: string[],
        @Query('since') since?: Date,
      ) {
        return { page, draft, q, tags, since: since?.toISOString() };
      }

      @Get('/headers')
      async headers(@Header('X-Page') page: number, @Header('user-agent') agent: string, @Cookie('session') session: string, @Cookie('n') n?: number) {
        return { page, agent, session, n };
      }
    }

    it('converts named query parameters by type; absent ones are undefined (so defaults apply)', async () => {
      const app = await appWith(Q);
      expect((await app.inject('/q')).json()).toEqual({ page: 1 });
      expect((await app.inject('/q?page=3&draft=true&q=tern&tags=a&tags=b&since=2024-01-02')).json()).toEqual({
        page: 3, draft: true, q: 'tern', tags: ['a', 'b'], since: '2024-01-02T00:00:00.000Z',
      });
      expect((await app.inject('/q?tags=only')).json()).toEqual({ page: 1, tags: ['only'] });
      // A repeated scalar gives its first value, as req.queryParams.get does.
      expect((await app.inject('/q?page=2&page=9')).json()).toEqual({ page: 2 });
    });

    it('answers one 422 listing every parameter that does not convert', async () => {
      const app = await appWith(Q);
      const response = await app.inject('/q?page=two&draft=maybe&page=3');
      expect(response.statusCode).toBe(422);
      expect(response.json()).toMatchObject({
        code: 'TERN_INVALID_PARAMETER',
        detail: "Query parameter 'page' must be a number. Query parameter 'draft' must be a boolean ('true', 'false', '1' or '0').",
        errors: [
          { path: 'page', message: "page must be a number, got 'two'" },
          { path: 'draft', message: "draft must be a boolean ('true', 'false', '1' or '0'), got 'maybe'" },
        ],
      });
      expect((await app.inject('/q?page=')).statusCode).toBe(422);
    });

    it('lists both failures, in parameter order, for a method of one or two parameters', async () => {
      @Controller('/pair')
      class Pair {
        @Get('/one') async one(@Query('n') n: number) { return { n }; }
        @Get('/two') async two(@Query('a') a: number, @Header('x-b') b: boolean) { return { a, b }; }
      }
      const app = await appWith(Pair);
      expect((await app.inject('/pair/one?n=x')).json()).toMatchObject({ status: 422, errors: [{ path: 'n' }] });
      const both = await app.inject({ url: '/pair/two?a=x', headers: { 'x-b': 'maybe' } });
      expect(both.statusCode).toBe(422);
      expect(both.json().errors.map((e: { path: string }) => e.path)).toEqual(['a', 'x-b']);
      const second = await app.inject({ url: '/pair/two?a=1', headers: { 'x-b': 'maybe' } });
      expect(second.json().errors.map((e: { path: string }) => e.path)).toEqual(['x-b']);
      expect((await app.inject({ url: '/pair/two?a=2', headers: { 'x-b': 'true' } })).json()).toEqual({ a: 2, b: true });
    });

    it('reads headers case-insensitively and cookies by name, converting them', async () => {
      const app = await appWith(Q);
      const response = await app.inject({ url: '/q/headers', headers: { 'x-page': '4', 'user-agent': 'jest', cookie: 'session=abc; n=5' } });
      expect(response.json()).toEqual({ page: 4, agent: 'jest', session: 'abc', n: 5 });
      const bad = await app.inject({ url: '/q/headers', headers: { 'x-page': 'four', cookie: 'n=five' } });
      expect(bad.json()).toMatchObject({
        status: 422,
        errors: [{ path: 'X-Page' }, { path: 'n' }],
      });
    });

    it('documents query, header and cookie parameters; declared parameters win', async () => {
      @Controller('/d')
      class D {
        @Get('/', { parameters: [{ name: 'page', in: 'query', description: 'Page number' }] })
        async list(@Query('page') page: number, @Query('ids') ids: string[], @Header('x-trace') trace: string, @Cookie('theme') theme: string) {
          return { page, ids, trace, theme };
        }
      }
      const app = await appWith(D);
      expect(app.getAllRoutes()[0].options.parameters).toEqual([
        { name: 'page', in: 'query', description: 'Page number' },
        { name: 'ids', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true },
        { name: 'x-trace', in: 'header', required: false, schema: { type: 'string' } },
        { name: 'theme', in: 'cookie', required: false, schema: { type: 'string' } },
      ]);
    });

    it('documents a 422 exactly for the operations whose parameters can answer one', async () => {
      class Filter {
        @IsInt() @Min(1) page!: number;
      }
      @Controller('/v')
      class V {
        @Get('/number') async num(@Query('page') page: number) { return { page }; }
        @Get('/header') async header(@Header('x-retries') retries: boolean) { return { retries }; }
        @Get('/cookie') async cookie(@Cookie('since') since: Date) { return { since }; }
        @Get('/path/{id}') async path(@Param('id') id: number) { return { id }; }
        @Get('/model') async model(@Query() filter: Filter) { return filter; }
        @Get('/strings') async strings(@Query('q') q: string, @Query('ids') ids: string[], @Header('x-raw') raw: unknown) { return { q, ids, raw }; }
        @Get('/none') async none() { return {}; }
      }
      const app = await appWith(V);
      const document = (await app.inject('/openapi.json')).json();
      const responsesOf = (path: string) => Object.keys(document.paths[path].get.responses);
      for (const path of ['/v/number', '/v/header', '/v/cookie', '/v/path/{id}', '/v/model']) {
        // A path parameter can also be too long: 414.
        expect([path, responsesOf(path)]).toEqual([path, path.includes('{') ? ['200', '413', '414', '422'] : ['200', '413', '422']]);
        expect(document.paths[path].get.responses['422'].content['application/problem+json'].schema).toEqual({
          $ref: '#/components/schemas/ValidationProblem',
        });
      }
      expect(responsesOf('/v/strings')).toEqual(['200', '413']);
      expect(responsesOf('/v/none')).toEqual(['200', '413']);
      // What the document promises is what the routes answer.
      expect((await app.inject('/v/number?page=x')).statusCode).toBe(422);
      expect((await app.inject({ url: '/v/header', headers: { 'x-retries': 'often' } })).statusCode).toBe(422);
      expect((await app.inject({ url: '/v/cookie', headers: { cookie: 'since=later' } })).statusCode).toBe(422);
      expect((await app.inject('/v/path/x')).statusCode).toBe(422);
      expect((await app.inject('/v/model?page=0')).statusCode).toBe(422);
      expect((await app.inject({ url: '/v/strings?q=1&ids=2', headers: { 'x-raw': '3' } })).statusCode).toBe(200);
    });
  });

  describe('@Req, @Res, @User and return values', () => {
    @Controller('/r')
    class R {
      private readonly greeting = 'hi';

      @Get('/req') async req(@Req() req: TernRequest) { return { path: req.url.path, method: req.method }; }
      @Get('/res') async res(@Res() res: TernResponse) { return res.setHeader('X-Own', 'yes').json({ own: true }, 202); }
      @Get('/user') async user(@User() user: unknown) { return { user: user ?? null }; }
      @Get('/this') async self() { return { greeting: this.greeting }; }
      @Get('/text') async text() { return 'plain'; }
      @Post('/', { statusCode: 201 }) async create() { return { created: true }; }
      @Delete('/{id}', { statusCode: 204 }) async remove() {}
      @Get('/nothing') async nothing() {}
      @Get('/sync/{id}') sync(@Param('id') id: number) {
        if (id === 0) throw new HTTPException(404, 'No zero');
        return { id };
      }
    }

    it('passes the request, the response and req.user', async () => {
      const app = new TernApp({ logger: false });
      app.addMiddleware(async (req, res, next) => {
        if (req.headers.get('authorization') === 'Bearer ada') req.user = { name: 'Ada' };
        return next();
      });
      app.registerControllers([R]);
      expect((await app.inject('/r/req')).json()).toEqual({ path: '/r/req', method: 'GET' });
      const own = await app.inject('/r/res');
      expect([own.statusCode, own.headers['x-own'], own.json()]).toEqual([202, 'yes', { own: true }]);
      expect((await app.inject({ url: '/r/user', headers: { authorization: 'Bearer ada' } })).json()).toEqual({ user: { name: 'Ada' } });
      expect((await app.inject('/r/user')).json()).toEqual({ user: null });
    });

    it('calls methods on their instance and sends plain values as JSON with the route status', async () => {
      const app = await appWith(R);
      expect((await app.inject('/r/this')).json()).toEqual({ greeting: 'hi' });
      const created = await app.inject({ method: 'POST', url: '/r' });
      expect([created.statusCode, created.json()]).toEqual([201, { created: true }]);
      const text = await app.inject('/r/text');
      expect([text.headers['content-type'], text.body]).toEqual(['text/plain; charset=utf-8', 'plain']);
    });

    it('accepts methods that are not async, throwing or returning', async () => {
      const app = await appWith(R);
      expect((await app.inject('/r/sync/3')).json()).toEqual({ id: 3 });
      expect((await app.inject('/r/sync/0')).json()).toMatchObject({ status: 404, detail: 'No zero' });
    });

    it('sends an empty 204 for a 204 route returning nothing, and a 500 for other routes returning nothing', async () => {
      const app = await appWith(R);
      const removed = await app.inject({ method: 'DELETE', url: '/r/1' });
      expect([removed.statusCode, removed.body]).toEqual([204, '']);
      expect((await app.inject('/r/nothing')).statusCode).toBe(500);
    });
  });

  it('reads no metadata while serving requests', async () => {
    @Controller('/m')
    class M {
      @Get('/{id}') async get(@Param('id') id: number, @Query('q') q: string, @Req() req: TernRequest) { return { id, q, path: req.path }; }
    }
    const app = await appWith(M);
    const spies = [jest.spyOn(Reflect, 'getMetadata'), jest.spyOn(Reflect, 'getOwnMetadata')];
    try {
      expect((await app.inject('/m/1?q=x')).json()).toEqual({ id: 1, q: 'x', path: '/m/1' });
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe('a @Query() model field typed as a union, with a number rule', () => {
  // `number | null` emits Object under tsc: the value would stay a string and fail @IsInt().
  class UnionQuery {
    @IsOptional() @IsInt() page?: number | null;
  }
  @Controller('/union')
  class UnionController {
    @Get('/')
    async list(@Query() query: UnionQuery) {
      return query;
    }
  }

  it('fails ready() naming the field and @Type(() => Number)', async () => {
    const failure = await new TernApp().registerControllers([UnionController]).ready().catch((err: Error) => err);
    expect(failure).toMatchObject({ code: 'TERN_CONTROLLER_UNRESOLVED_TYPE', message: expect.stringContaining('add @Type(() => Number) (from class-transformer) to UnionQuery.page') });
  });
});
