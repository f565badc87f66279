import { Convertor, MakeConfig, registerUrlConvertor, TernApp } from '@tern/core';
import { FloatConvertor, IntegerConvertor, PathConvertor, SlugConvertor, StringConvertor, UUIDConvertor } from '@tern/core/converters';

function echoApp(path: string, config?: MakeConfig) {
  const app = new TernApp({ config });
  app.get(path, async (req, res, params) => params);
  return app;
}

describe('built-in converters', () => {
  it('use the exact patterns of the specification', () => {
    expect(new StringConvertor().regex).toBe('[^/]+');
    expect(new PathConvertor().regex).toBe('.*');
    expect(new IntegerConvertor().regex).toBe('[0-9]+');
    expect(new FloatConvertor().regex).toBe('[0-9]+(\\.[0-9]+)?');
    expect(new UUIDConvertor().regex).toBe('[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}');
    expect(new SlugConvertor().regex).toBe('[a-z0-9]+(?:-[a-z0-9]+)*');
  });

  it.each([
    ['/s/{v}', '/s/hello%20world', { v: 'hello world' }],
    ['/s/{v:str}', '/s/abc', { v: 'abc' }],
    ['/i/{v:int}', '/i/0042', { v: 42 }],
    ['/f/{v:float}', '/f/3.25', { v: 3.25 }],
    ['/f/{v:float}', '/f/7', { v: 7 }],
    ['/u/{v:uuid}', '/u/123E4567E89B12D3A456426614174000', { v: '123e4567-e89b-12d3-a456-426614174000' }],
    ['/g/{v:slug}', '/g/hello-world-2', { v: 'hello-world-2' }],
    ['/p/{v:path}', '/p/a/b/c.txt', { v: 'a/b/c.txt' }],
  ])('%s serves %s with %j', async (pattern, url, expected) => {
    const response = await echoApp(pattern).inject(url);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(expected);
  });

  it.each([
    ['/i/{v:int}', '/i/abc'],
    ['/i/{v:int}', '/i/-1'],
    ['/i/{v:int}', '/i/99999999999999999999'],
    ['/f/{v:float}', '/f/1.'],
    ['/f/{v:float}', '/f/abc'],
    ['/u/{v:uuid}', '/u/not-a-uuid'],
    ['/g/{v:slug}', '/g/Hello_World'],
  ])('%s answers 422 for %s, never 404', async (pattern, url) => {
    const response = await echoApp(pattern).inject(url);
    expect(response.statusCode).toBe(422);
    expect(response.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const body = response.json();
    expect(body).toMatchObject({ status: 422, title: 'Unprocessable Entity', instance: url });
    expect(body.errors[0].path).toBe('v');
    expect(typeof body.detail).toBe('string');
  });
});

class VersionConvertor extends Convertor<number> {
  regex = 'v[0-9]+';
  override openapi = { type: 'string', pattern: '^v[0-9]+$' };
  convert(value: string): number {
    const n = Number(value.slice(1));
    if (n === 0) throw new Error('API versions start at v1');
    return n;
  }
  toString(value: number): string {
    return `v${value}`;
  }
}
registerUrlConvertor('version', new VersionConvertor());

describe('custom converters', () => {
  it('convert the value and constrain a version segment', async () => {
    const app = echoApp('/api/{version:version}/status');
    expect((await app.inject('/api/v2/status')).json()).toEqual({ version: 2 });
    expect((await app.inject('/api/x2/status')).statusCode).toBe(422);
  });

  it('answer 422 carrying the message a throwing convert gave', async () => {
    const response = await echoApp('/api/{version:version}/status').inject('/api/v0/status');
    expect(response.statusCode).toBe(422);
    expect(response.json().detail).toBe('API versions start at v1');
  });

  it('fail startup when a route names an unknown converter', async () => {
    const app = echoApp('/x/{v:nope}');
    await expect(app.ready()).rejects.toMatchObject({ code: 'TERN_UNKNOWN_CONVERTER', message: expect.stringContaining("unknown converter 'nope'") });
  });

  it('refuse invalid registrations', () => {
    expect(() => registerUrlConvertor('int', new VersionConvertor())).toThrow(/built-in/);
    expect(() => registerUrlConvertor('bad name', new VersionConvertor())).toThrow(/identifier/);
  });
});

describe('routes differing only in a converter', () => {
  function app() {
    const a = new TernApp({ config: new MakeConfig({ debug: true }) });
    a.get('/items/{id:int}', async (req, res, { id }) => ({ by: 'id', id }));
    a.get('/items/{slug:slug}', async (req, res, { slug }) => ({ by: 'slug', slug }));
    a.get('/items/new', async () => ({ by: 'static' }));
    return a;
  }

  it('are tried in declaration order; static segments win over parameters', async () => {
    const a = app();
    expect((await a.inject('/items/12')).json()).toEqual({ by: 'id', id: 12 });
    expect((await a.inject('/items/hello-there')).json()).toEqual({ by: 'slug', slug: 'hello-there' });
    expect((await a.inject('/items/new')).json()).toEqual({ by: 'static' });
  });

  it('answer 422 when none accepts, explaining each candidate in debug mode', async () => {
    const response = await app().inject('/items/NOPE');
    expect(response.statusCode).toBe(422);
    expect(response.json().reasons).toEqual([
      expect.stringContaining("GET /items/{id:int}: 'NOPE' is not a valid int"),
      expect.stringContaining("GET /items/{slug:slug}: 'NOPE' is not a valid slug"),
    ]);
  });
});

describe('parameter limits', () => {
  it('answers 414 for a parameter longer than maxParamLength', async () => {
    const app = echoApp('/s/{v}', new MakeConfig({ maxParamLength: 10 }));
    expect((await app.inject('/s/0123456789')).statusCode).toBe(200);
    const response = await app.inject('/s/01234567890');
    expect(response.statusCode).toBe(414);
  });
});
