import { IsString } from 'class-validator';
import {
  ApiResponse,
  Body,
  Controller,
  Delete,
  Get,
  Head,
  Options,
  Patch,
  Header,
  Param,
  Post,
  Public,
  Put,
  Query,
  Req,
  Route,
  Security,
  Summary,
  Tags,
  TernApp,
  TernError,
  UseMiddleware,
  type TernRequest,
} from '@tern/core';

class Dto {
  @IsString() name!: string;
}

interface DtoShape {
  name: string;
}

/** `ready()` must reject with a TernError of `code` whose message matches every pattern. */
async function expectStartupError(controllers: unknown[], code: string, ...patterns: RegExp[]): Promise<void> {
  const app = new TernApp({ logger: false });
  app.registerControllers(controllers as Array<Function | object>);
  const error = await app.ready().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TernError);
  expect((error as TernError).code).toBe(code);
  for (const pattern of patterns) expect((error as TernError).message).toMatch(pattern);
}

function decorationError(define: () => void, ...patterns: RegExp[]): void {
  let error: unknown;
  try {
    define();
  } catch (err) {
    error = err;
  }
  expect(error).toBeInstanceOf(TernError);
  expect((error as TernError).code).toBe('TERN_DECORATOR_MISUSE');
  for (const pattern of patterns) expect((error as TernError).message).toMatch(pattern);
}

describe('controller startup errors', () => {
  it('rejects a class without @Controller, given as a class or an instance', async () => {
    class Plain {
      @Get('/') async get() { return {}; }
    }
    await expectStartupError([Plain], 'TERN_CONTROLLER_MISSING_DECORATOR', /Plain is not a controller/, /@Controller\('\/prefix'\)/);
    await expectStartupError([new Plain()], 'TERN_CONTROLLER_MISSING_DECORATOR', /Plain \(given as an instance\)/);
  });

  it('requires a subclass of a controller to carry its own @Controller', async () => {
    @Controller('/base')
    class Base {
      @Get('/') async get() { return {}; }
    }
    class Child extends Base {}
    await expectStartupError([Child], 'TERN_CONTROLLER_MISSING_DECORATOR', /needs its own @Controller/);
  });

  it('rejects entries that are not classes or instances, and a non-list', async () => {
    await expectStartupError([null], 'TERN_CONTROLLER_INVALID', /got null/);
    await expectStartupError(['Users'], 'TERN_CONTROLLER_INVALID', /got string/);
    await expectStartupError([{ get: () => 1 }], 'TERN_CONTROLLER_INVALID', /plain object/);
    const app = new TernApp();
    app.registerControllers('Users' as unknown as Function[]);
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_CONTROLLER_INVALID', message: expect.stringMatching(/expects a list/) });
  });

  it('rejects a method parameter without a decorator, naming its position and type', async () => {
    @Controller('/u')
    class Users {
      @Get('/{id}') async get(@Param('id') id: string, verbose: boolean) { return { id, verbose }; }
    }
    await expectStartupError([Users], 'TERN_CONTROLLER_UNDECORATED_PARAM', /Users\.get, parameter #1 \(typed Boolean\) has no decorator/, /@Query\('name'\)/);
  });

  it('rejects a body or query DTO that reflects as Object, saying how to fix it', async () => {
    @Controller('/u')
    class BodyAsInterface {
      @Post('/') async create(@Body() body: DtoShape) { return body; }
    }
    await expectStartupError(
      [BodyAsInterface],
      'TERN_CONTROLLER_UNRESOLVED_TYPE',
      /BodyAsInterface\.create, parameter #0 @Body\(\): the parameter's type reflects as Object/,
      /import type/,
      /@Body\(CreateUserDto\)/,
    );
    @Controller('/u')
    class QueryAsInterface {
      @Get('/') async list(@Query() query: Record<string, string>) { return query; }
    }
    await expectStartupError([QueryAsInterface], 'TERN_CONTROLLER_UNRESOLVED_TYPE', /@Query\(\)/, /@Query\(ListQuery\)/);
  });

  it('rejects a query parameter with no type when no metadata was emitted (esbuild, tsx), naming the explicit form', async () => {
    // What the `@` syntax compiles to, minus the `design:paramtypes` metadata TypeScript would add.
    class Bare {
      async get(id: string) { return { id }; }
    }
    const descriptor = Object.getOwnPropertyDescriptor(Bare.prototype, 'get') as PropertyDescriptor;
    Get('/')(Bare.prototype, 'get', descriptor);
    Query('id')(Bare.prototype, 'get', 0);
    Controller('/bare')(Bare);
    await expectStartupError([Bare], 'TERN_CONTROLLER_UNRESOLVED_TYPE', /no parameter types were emitted/, /@Query\('id', Number\)/, /emitDecoratorMetadata/);
  });

  it('serves parameters that need no type without metadata', async () => {
    class Bare {
      async get(req: TernRequest) { return { path: req.path }; }
    }
    Get('/')(Bare.prototype, 'get', Object.getOwnPropertyDescriptor(Bare.prototype, 'get') as PropertyDescriptor);
    Req()(Bare.prototype, 'get', 0);
    Controller('/bare')(Bare);
    const app = new TernApp();
    app.registerControllers([Bare]);
    expect((await app.inject('/bare')).json()).toEqual({ path: '/bare' });
  });

  it('rejects types Tern cannot convert or validate', async () => {
    @Controller('/a')
    class ScalarBody {
      @Post('/') async create(@Body() body: string) { return body; }
    }
    await expectStartupError([ScalarBody], 'TERN_CONTROLLER_UNSUPPORTED_TYPE', /must be typed by a class-validator class, not String/);
    @Controller('/a')
    class ListBody {
      @Post('/') async create(@Body() body: Dto[]) { return body; }
    }
    await expectStartupError([ListBody], 'TERN_CONTROLLER_UNSUPPORTED_TYPE', /not Array/, /wrap it in a class/);
    @Controller('/a')
    class ClassParam {
      @Get('/{id}') async get(@Param('id') id: Dto) { return id; }
    }
    await expectStartupError([ClassParam], 'TERN_CONTROLLER_UNSUPPORTED_TYPE', /path parameters to string, number, boolean or Date, not Dto/);
    @Controller('/a')
    class NumberQuery {
      @Get('/') async list(@Query() page: number) { return { page }; }
    }
    await expectStartupError([NumberQuery], 'TERN_CONTROLLER_UNSUPPORTED_TYPE', /@Query\('page'\)/);
    @Controller('/a')
    class ListHeader {
      @Get('/') async list(@Header('x-ids') ids: string[]) { return { ids }; }
    }
    await expectStartupError([ListHeader], 'TERN_CONTROLLER_UNSUPPORTED_TYPE', /headers to string, number, boolean or Date, not Array/);
  });

  it('rejects @Param naming a parameter the path does not have', async () => {
    @Controller('/users/{userId:int}')
    class Posts {
      @Get('/posts/{postId}') async get(@Param('id') id: number) { return { id }; }
    }
    await expectStartupError([Posts], 'TERN_CONTROLLER_UNKNOWN_PARAM', /path '\/users\/\{userId:int\}\/posts\/\{postId\}' has no parameter 'id'; its parameters are 'userId', 'postId'/);
  });

  it('rejects a controller class whose constructor needs arguments or throws', async () => {
    @Controller('/u')
    class NeedsDb {
      constructor(readonly db: Map<string, string>) {}
      @Get('/') async list() { return [...this.db.keys()]; }
    }
    await expectStartupError([NeedsDb], 'TERN_CONTROLLER_INSTANTIATION', /takes 1 parameter/, /registerControllers\(\[new NeedsDb\(\.\.\.\)\]\)/);
    @Controller('/u')
    class Throws {
      constructor() { throw new Error('no config'); }
      @Get('/') async list() { return []; }
    }
    await expectStartupError([Throws], 'TERN_CONTROLLER_INSTANTIATION', /new Throws\(\) failed: no config/);
  });

  it('rejects contradictory or incomplete declarations', async () => {
    @Controller('/a')
    class NoRoute {
      @Summary('forgot the route') async orphan() { return {}; }
      @Get('/') async ok() { return {}; }
    }
    await expectStartupError([NoRoute], 'TERN_CONTROLLER_INVALID', /NoRoute\.orphan has Tern decorators but no route decorator/);

    @Controller('/a')
    class Empty {
      async helper() { return {}; }
    }
    await expectStartupError([Empty], 'TERN_CONTROLLER_INVALID', /Empty has no routes/);

    @Controller('/a')
    class Both {
      @Get('/') @Public() @Security('bearerAuth') async get() { return {}; }
    }
    await expectStartupError([Both], 'TERN_CONTROLLER_INVALID', /both @Public\(\) and secured/);

    @Controller('/a')
    class TwoBodies {
      @Post('/') async create(@Body() a: Dto, @Body() b: Dto) { return { a, b }; }
    }
    await expectStartupError([TwoBodies], 'TERN_CONTROLLER_INVALID', /2 @Body\(\) parameters/);

    class Other {
      @IsString() other!: string;
    }
    @Controller('/a')
    class BodyConflict {
      @Post('/', { requestModel: Other }) async create(@Body() body: Dto) { return body; }
    }
    await expectStartupError([BodyConflict], 'TERN_CONTROLLER_INVALID', /typed Dto but the requestModel option is Other/);

    @Controller('/a')
    class TwoResponses {
      @Get('/') @ApiResponse(404, { description: 'a' }) @ApiResponse(404, { description: 'b' }) async get() { return {}; }
    }
    await expectStartupError([TwoResponses], 'TERN_CONTROLLER_INVALID', /two @ApiResponse\(404/);

    @Controller('/a')
    class TwoSources {
      @Get('/{id}') async get(@Param('id') @Query('id') id: string) { return { id }; }
    }
    await expectStartupError([TwoSources], 'TERN_CONTROLLER_INVALID', /two sources, @Param\('id'\) and @Query\('id'\)/);
  });

  it('reports path mistakes with the core routing codes', async () => {
    @Controller('/a')
    class BadConverter {
      @Get('/{id:nope}') async get() { return {}; }
    }
    await expectStartupError([BadConverter], 'TERN_UNKNOWN_CONVERTER', /BadConverter\.get/);
  });

  it('rejects decorators given bad arguments or put in the wrong place, when the class is defined', () => {
    decorationError(() => Controller(5 as unknown as string), /prefix must be a string/);
    decorationError(() => Get(7 as unknown as string), /@Get\(path, options\): path must be a string/);
    decorationError(() => Security(''), /scheme name is empty/);
    decorationError(() => Security('oauth2', 'read' as unknown as string[]), /scopes must be a list/);
    decorationError(() => Security(null as never), /or \{\} \(anonymous allowed\)/);
    decorationError(() => Tags(), /one or more strings/);
    decorationError(() => ApiResponse(99, { description: 'x' }), /99 is not an HTTP status code/);
    decorationError(() => UseMiddleware('auth' as never), /async \(req, res, next\) functions/);
    decorationError(() => Param(''), /non-empty string/);
    decorationError(() => Summary(''), /non-empty string/);
    decorationError(() => {
      class C {
        field = 1;
      }
      Get('/')(C.prototype, 'field', undefined as unknown as PropertyDescriptor);
    }, /C\.field: it decorates methods/);
    decorationError(() => {
      class C {
        static async list() { return []; }
      }
      Get('/')(C, 'list', Object.getOwnPropertyDescriptor(C, 'list') as PropertyDescriptor);
    }, /static method C\.list/);
    decorationError(() => {
      class C {}
      Summary('x')(C as unknown as object, undefined as unknown as string, undefined as unknown as PropertyDescriptor);
    }, /decorates route methods, not classes/);
    decorationError(() => {
      class C {
        constructor(readonly x: string) {}
      }
      Param('x')(C, undefined, 0);
    }, /constructor parameter of C/);
    decorationError(() => {
      @Controller('/twice')
      @Controller('/once')
      class C {}
      return C;
    }, /@Controller is applied twice/);
  });

  it('names the route decorator that was misused', () => {
    const decorators = { Get, Post, Put, Patch, Delete, Head, Options, Route };
    for (const [name, decorator] of Object.entries(decorators)) {
      decorationError(() => decorator(7 as unknown as string), new RegExp(`^@${name}\\(path, options\\): path must be a string`));
      decorationError(() => decorator('/x', [] as never), new RegExp(`^@${name}\\('/x', options\\): options must be an object`));
    }
    decorationError(() => Route('/x', { methods: [] }), /^@Route\('\/x'\): methods must be a non-empty list/);
  });
});
