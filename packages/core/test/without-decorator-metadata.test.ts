/**
 * Controllers compiled without decorator metadata, as tsx, vitest and esbuild compile them: the
 * source below goes through esbuild's TypeScript transform (legacy decorators, no
 * `design:paramtypes`), and the app runs from that output. Path parameters take their
 * converter's type, the others the type given in the decorator; a parameter with neither fails
 * startup naming the explicit form.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import type { TernApp } from '@tern/core';

// Inside the repository (.tmp/ is ignored by git), so the output resolves its imports as user code would.
const tmp = join(__dirname, '..', '..', '..', '.tmp');
mkdirSync(tmp, { recursive: true });
const folder = mkdtempSync(join(tmp, 'esbuild-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Compiles `source` the way tsx does (esbuild, experimentalDecorators on) and loads the output. */
function loadCompiled(name: string, source: string): Record<string, unknown> {
  const { code } = transformSync(source, {
    loader: 'ts',
    format: 'cjs',
    target: 'node20',
    tsconfigRaw: { compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true } },
  });
  expect(code).not.toContain('design:paramtypes');
  const file = join(folder, `${name}.js`);
  writeFileSync(file, code);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the compiled module is the subject
  return require(file);
}

const ARTICLES = `
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, IsString, Length, Min, ValidateNested } from 'class-validator';
import { Body, Controller, Cookie, Get, Header, Param, Post, Query, TernApp } from '@tern/core';

class Author { @IsString() @Length(1, 20) username: string; }
class NewArticle {
  @IsString() title: string;
  @IsObject() @ValidateNested() @Type(() => Author) author: Author;
}

class ArticleQuery {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) limit?: number;
  @IsOptional() @IsString() author?: string;
}

@Controller('/articles')
class ArticlesController {
  @Get('/{id:int}/comments/{slug}')
  async comment(@Param('id') id: number, @Param('slug') slug: string) {
    return { id, idType: typeof id, slug };
  }

  @Get('/')
  async list(
    @Query('limit', Number) limit: number | undefined,
    @Query('tag', Array) tags: string[] | undefined,
    @Query('favorited', Boolean) favorited: boolean | undefined,
    @Header('x-trace', String) trace: string | undefined,
    @Cookie('theme', String) theme: string | undefined,
  ) {
    return { limit: limit ?? 20, tags: tags ?? [], favorited: favorited ?? null, trace: trace ?? null, theme: theme ?? null };
  }

  @Get('/archive/{year}')
  async archive(@Param('year', Number) year: number) {
    return { year, yearType: typeof year };
  }

  @Get('/search')
  async search(@Query(ArticleQuery) query: ArticleQuery) {
    return { query, limitType: typeof query.limit };
  }

  @Post('/', { statusCode: 201 })
  async create(@Body(NewArticle) article: NewArticle) {
    return { isDto: article instanceof NewArticle, authorIsAuthor: article.author instanceof Author, title: article.title };
  }
}

export function buildApp() {
  const app = new TernApp();
  app.registerControllers([ArticlesController]);
  return app;
}
`;

describe('a controller app compiled by esbuild (no decorator metadata)', () => {
  const app = (loadCompiled('articles', ARTICLES).buildApp as () => TernApp)();

  it("gives path parameters their converter's type", async () => {
    expect((await app.inject('/articles/7/comments/first-post')).json()).toEqual({ id: 7, idType: 'number', slug: 'first-post' });
    expect((await app.inject('/articles/seven/comments/x')).statusCode).toBe(422); // the converter refuses it
  });

  it('converts query parameters, headers and cookies to the type given in the decorator', async () => {
    const response = await app.inject({ url: '/articles?limit=5&tag=a&tag=b&favorited=true', headers: { 'x-trace': 't-1' }, cookies: { theme: 'dark' } });
    expect(response.json()).toEqual({ limit: 5, tags: ['a', 'b'], favorited: true, trace: 't-1', theme: 'dark' });
    expect((await app.inject('/articles')).json()).toEqual({ limit: 20, tags: [], favorited: null, trace: null, theme: null });
    const invalid = await app.inject('/articles?limit=many');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toEqual([{ path: 'limit', message: "limit must be a number, got 'many'" }]);
  });

  it('converts a path parameter to the type given, over its converter', async () => {
    expect((await app.inject('/articles/archive/2024')).json()).toEqual({ year: 2024, yearType: 'number' });
    expect((await app.inject('/articles/archive/last')).statusCode).toBe(422);
  });

  it('converts @Query(Model) properties typed by @Type(() => Number)', async () => {
    expect((await app.inject('/articles/search?limit=5&author=jake')).json()).toEqual({ query: { limit: 5, author: 'jake' }, limitType: 'number' });
    const invalid = await app.inject('/articles/search?limit=0');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors[0].path).toBe('limit');
  });

  it('validates @Body(Model) with its nested models', async () => {
    const created = await app.inject({ method: 'POST', url: '/articles', payload: { title: 'Hi', author: { username: 'jake' } } });
    expect(created.json()).toEqual({ isDto: true, authorIsAuthor: true, title: 'Hi' });
    const invalid = await app.inject({ method: 'POST', url: '/articles', payload: { title: 'Hi', author: { username: 42 } } });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors).toContainEqual({ path: 'author.username', message: 'username must be a string' });
  });

  it('documents the parameters with the types given', async () => {
    const parameters = (await app.inject('/openapi.json')).json().paths['/articles'].get.parameters;
    expect(parameters).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: 'limit', in: 'query', schema: { type: 'number' } }),
        expect.objectContaining({ name: 'tag', in: 'query', schema: { type: 'array', items: { type: 'string' } } }),
        expect.objectContaining({ name: 'x-trace', in: 'header', schema: { type: 'string' } }),
      ]),
    );
  });
});

describe('a parameter whose type is neither known nor given', () => {
  it.each([
    ["@Query('page') page: number", "@Query('page', Number)"],
    ["@Header('x-page') page: number", "@Header('x-page', Number)"],
    ['@Body() body: unknown', '@Body(CreateUserDto)'],
    ['@Query() query: unknown', '@Query(ListQuery)'],
  ])('%s fails startup naming %s', async (parameter, explicit) => {
    const module = loadCompiled(
      `unknown-${explicit.replace(/\W/g, '')}`,
      `import { Controller, Get, Query, Header, Body, TernApp } from '@tern/core';
       @Controller('/x') class X { @Get('/') async get(${parameter}) { return {}; } }
       export const app = new TernApp().registerControllers([X]);`,
    );
    const failure = await (module.app as TernApp).ready().catch((err: Error) => err);
    expect(failure).toMatchObject({ code: 'TERN_CONTROLLER_UNRESOLVED_TYPE' });
    expect((failure as Error).message).toContain(`Give the type: ${explicit}`);
    expect((failure as Error).message).toContain('tsx, esbuild and vitest do not emit decorator metadata');
  });

  it('refuses a type the parameter cannot convert to, where the decorator is written', () => {
    const module = () =>
      loadCompiled(
        'bad-type',
        `import { Controller, Get, Query } from '@tern/core';
         class Page {}
         @Controller('/x') class X { @Get('/') async get(@Query('page', Page as never) page: unknown) { return {}; } }`,
      );
    expect(module).toThrow(expect.objectContaining({ code: 'TERN_DECORATOR_MISUSE', message: expect.stringContaining("@Query('page', type)") }));
  });
});

describe('a @Query() model field with a number, boolean or date rule and no @Type', () => {
  // Under tsc the field converted by its emitted type and the request got 200; under tsx the
  // same request got a 422 ("page must be an integer number") with nothing said at startup.
  const source = (field: string) => `
    import 'reflect-metadata';
    import { IsBoolean, IsDate, IsInt, IsOptional, Min } from 'class-validator';
    import { Controller, Get, Query, TernApp } from '@tern/core';
    class ListQuery { ${field} }
    @Controller('/x') class X { @Get('/') async get(@Query(ListQuery) query: ListQuery) { return query; } }
    export const app = new TernApp().registerControllers([X]);`;

  it.each([
    ['@IsOptional() @IsInt() @Min(1) page?: number', 'ListQuery.page has @IsInt()', '@Type(() => Number)'],
    ['@IsOptional() @IsBoolean() archived?: boolean', 'ListQuery.archived has @IsBoolean()', '@Type(() => Boolean)'],
    ['@IsOptional() @IsDate() since?: Date', 'ListQuery.since has @IsDate()', '@Type(() => Date)'],
  ])('%s fails ready() naming the field and %s', async (field, names, decorator) => {
    const module = loadCompiled(`untyped-${decorator.replace(/\W/g, '')}`, source(field));
    const failure = await (module.app as TernApp).ready().catch((err: Error) => err);
    expect(failure).toMatchObject({ code: 'TERN_CONTROLLER_UNRESOLVED_TYPE' });
    expect((failure as Error).message).toContain(names);
    expect((failure as Error).message).toContain(`add ${decorator} (from class-transformer) to ListQuery.`);
  });

  it('starts, and converts, once the field has @Type', async () => {
    const module = loadCompiled(
      'typed-query-field',
      source('@IsOptional() @Type(() => Number) @IsInt() @Min(1) page?: number').replace("import 'reflect-metadata';", "import 'reflect-metadata'; import { Type } from 'class-transformer';"),
    );
    expect((await (module.app as TernApp).inject('/x?page=2')).json()).toEqual({ page: 2 });
  });
});
