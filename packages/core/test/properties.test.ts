import { Agent, request } from 'node:http';
import fc from 'fast-check';
import { IsInt, IsOptional, IsString, Min } from 'class-validator';
import { MakeConfig, Routes, TernApp } from '@tern/core';
import { FloatConvertor, IntegerConvertor, SlugConvertor, StringConvertor, UUIDConvertor } from '@tern/core/converters';

class Payload {
  @IsString() name: string;
  @IsOptional() @IsInt() @Min(0) count?: number;
}

/** An app with every declaration feature a request can reach. */
function buildApp(): TernApp {
  const app = new TernApp({ logger: false, config: new MakeConfig({ bodyLimit: 4096 }) });
  app.addMiddleware(async (req, res, next) => next());
  app.get('/', async () => ({ ok: true }));
  app.get('/users/{id:int}', { name: 'user' }, async (req, res, { id }) => ({ id }));
  app.get('/users/{id:int}/posts/{slug:slug}', { name: 'post' }, async (req, res, p) => p);
  app.get('/objects/{id:uuid}', { name: 'object' }, async (req, res, p) => p);
  app.get('/prices/{value:float}', { name: 'price' }, async (req, res, p) => p);
  app.get('/files/{rest:path}', { name: 'file' }, async (req, res, p) => p);
  app.get('/tags/{tag}', { name: 'tag' }, async (req, res, p) => p);
  app.post('/items', { requestModel: Payload, statusCode: 201 }, async (req) => req.body as object);
  app.post('/echo', async (req) => ({ body: await req.json() }));
  app.get('/search', async (req) => ({ q: req.queryParams.get('q') ?? null, c: req.cookies.get('c') ?? null, h: req.headers.get('x-h') ?? null }));
  return app;
}

const app = buildApp();
beforeAll(() => app.ready());

/** Path-ish strings: segments from a mix of plain, encoded, dot and hostile characters. */
const segment = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.stringMatching(/^[a-z0-9-]{1,10}$/),
  fc.constantFrom('.', '..', '%2e%2e', '%', '%zz', '%E0%A4%A', '%2F', '%00', 'users', 'posts', '12', '__proto__', 'constructor'),
  fc.nat().map(String),
);
const path = fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.map((p) => p.replace(/[?#\s]/g, '')).join('/')}`);

describe('no input produces a 5xx', () => {
  // Through a real socket: inject() parses targets with new URL(), which rejects or rewrites
  // paths ('/\\', '/a/../b') that a raw client can send.
  it('for arbitrary paths and methods', async () => {
    const address = new URL(await app.listen({ port: 0 }));
    const agent = new Agent({ keepAlive: true, maxSockets: 4 });
    const send = (method: string, target: string) =>
      new Promise<number>((resolve, reject) => {
        request({ host: address.hostname, port: address.port, method, path: target, agent }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode as number));
        })
          .on('error', reject)
          .end();
      });
    try {
      await fc.assert(
        fc.asyncProperty(path, fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'HEAD', 'OPTIONS', 'PATCH'), async (target, method) => {
          expect(await send(method, target)).toBeLessThan(500);
        }),
        { numRuns: 300 },
      );
    } finally {
      agent.destroy();
      await app.close();
    }
  });

  it('for arbitrary query strings, headers and cookies', async () => {
    const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\t\x20-\x7e]/g, ''));
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60 }), headerValue, headerValue, async (query, h, cookie) => {
        const response = await app.inject({ url: `/search?${encodeURI(query)}`, headers: { 'x-h': h, cookie } });
        expect(response.statusCode).toBe(200);
      }),
      { numRuns: 200 },
    );
  });

  it('for arbitrary JSON and non-JSON bodies', async () => {
    const body = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.string({ maxLength: 50 }),
      fc.constantFrom('{"__proto__":{"x":1}}', '{"name":"a","count":-1}', '{"name":"a"}', 'null', '[]', '{', '{"a":' + '['.repeat(100)),
    );
    await fc.assert(
      fc.asyncProperty(body, fc.constantFrom('/items', '/echo'), fc.constantFrom('application/json', 'text/plain', 'application/x+json', 'bogus;;'), async (payload, url, type) => {
        const response = await app.inject({ method: 'POST', url, headers: { 'content-type': type }, payload });
        expect(response.statusCode).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  });
});

describe('round trips', () => {
  const slug = fc.stringMatching(/^[a-z0-9]+(?:-[a-z0-9]+)*$/).filter((s) => s.length <= 100);
  const uuid = fc.uuid();
  const float = fc.double({ min: 0, max: Number.MAX_VALUE, noNaN: true, noDefaultInfinity: true });
  // Through a URL the text must also fit maxParamLength (100): 5e-324 spelled out does not.
  const urlFloat = float.filter((f) => new FloatConvertor().toString(f).length <= 100);
  // Values with a '.' or '..' segment, a backslash counting as a separator (`\.`), are refused by
  // urlFor and by the router alike (docs/security.md): a round trip exists only for the others.
  const noDotSegment = (s: string) => s.split(/[/\\]/).every((part) => part !== '.' && part !== '..');
  const text = fc.string({ minLength: 1, maxLength: 30 }).filter((s) => !s.includes('/') && noDotSegment(s));
  const restPath = fc.string({ maxLength: 30 }).filter(noDotSegment);

  it('app.inject(urlFor(name, params)) serves the same params', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: Number.MAX_SAFE_INTEGER }), slug, uuid, urlFloat, text, restPath, async (id, s, u, f, t, rest) => {
        const cases: Array<[string, Record<string, unknown>, Record<string, unknown>]> = [
          ['post', { id, slug: s }, { id, slug: s }],
          ['object', { id: u }, { id: u.toLowerCase() }],
          ['price', { value: f }, { value: f }],
          ['tag', { tag: t }, { tag: t }],
          ['file', { rest }, { rest }],
        ];
        for (const [name, params, expected] of cases) {
          const response = await app.inject(app.urlFor(name, params));
          expect(response.json()).toEqual(expected);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('route.match(urlFor(...)) returns the same params', () => {
    const route = new Routes({ path: '/users/{id:int}/posts/{slug:slug}' });
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), slug, (id, s) => {
        const [match, params, allowed] = route.match(app.urlFor('post', { id, slug: s }), 'GET');
        expect(match).toBe(route);
        expect(params).toEqual({ id, slug: s });
        expect(allowed).toBe(true);
      }),
    );
  });

  it('convert(toString(x)) gives x back for every built-in converter', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), float, slug, uuid, text, (i, f, s, u, t) => {
        expect(new IntegerConvertor().convert(new IntegerConvertor().toString(i))).toBe(i);
        expect(new FloatConvertor().convert(new FloatConvertor().toString(f))).toBe(f);
        expect(new SlugConvertor().convert(new SlugConvertor().toString(s))).toBe(s);
        expect(new UUIDConvertor().convert(new UUIDConvertor().toString(u))).toBe(u.toLowerCase());
        expect(new StringConvertor().convert(new StringConvertor().toString(t))).toBe(t);
      }),
    );
  });
});
