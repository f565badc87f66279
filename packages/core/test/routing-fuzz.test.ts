/**
 * Fuzzing the router: random request targets (random bytes, percent-encodings valid and broken,
 * dot segments encoded or not, `//`, `\`, `#`, long segments, unicode) and random methods against
 * a table using every built-in converter and a custom one, groups, routers with prefixes, HEAD
 * and 405 cases and request models. Whatever the target: never a 5xx, never an answer over a
 * fixed bound, the server still answers afterwards, and every 2xx of a named route has params
 * that round-trip through `app.urlFor`.
 *
 * 2,400 targets through `app.inject()` and 300 over a real socket by default; set TERN_FUZZ_RUNS
 * for more (e.g. TERN_FUZZ_RUNS=100000).
 */
import fc from 'fast-check';
import { IsInt, IsString } from 'class-validator';
import { Group, Router, Routes, TernApp } from '@tern/core';
import { Convertor, registerUrlConvertor } from '@tern/core/converters';
import { listenOnFreePort, rawExchange, statusOf } from '../../../test-support/raw-http';

const RUNS = Number(process.env.TERN_FUZZ_RUNS ?? 2400);
const SOCKET_RUNS = Math.max(300, Math.ceil(RUNS / 8));
/**
 * A refusal quotes the target once (RFC 9457 `instance`), never more: its body stays within the
 * target's length plus this. Over a socket Node caps the head at 16 KiB (431 beyond), so every
 * answer there stays within a fixed bound.
 */
const MAX_OVERHEAD_BYTES = 4 * 1024;
const MAX_SOCKET_RESPONSE_BYTES = 16 * 1024 + MAX_OVERHEAD_BYTES;

class VersionConvertor extends Convertor<number> {
  regex = 'v[0-9]+';
  convert(value: string): number {
    const n = Number(value.slice(1));
    if (!Number.isSafeInteger(n) || n === 0) throw new Error('versions are v1 and up');
    return n;
  }
  toString(value: number): string {
    return `v${value}`;
  }
}
registerUrlConvertor('fuzzversion', new VersionConvertor());

class Pet {
  @IsString() name: string;
  @IsInt() age: number;
}

interface Echo {
  route: string;
  params: Record<string, unknown>;
}

/** Every named route answers its name and its params, so a 2xx can be replayed through urlFor. */
function buildApp(): TernApp {
  const app = new TernApp();
  const echo = (route: string) => async (_req: unknown, _res: unknown, params: Record<string, unknown>) => ({ route, params });
  app.get('/', { name: 'root' }, echo('root'));
  app.get('/s/{name}', { name: 's' }, echo('s'));
  app.get('/p/{rest:path}', { name: 'p' }, echo('p'));
  app.get('/i/{id:int}', { name: 'i' }, echo('i'));
  app.get('/f/{x:float}', { name: 'f' }, echo('f'));
  app.get('/u/{id:uuid}', { name: 'u' }, echo('u'));
  app.get('/g/{slug:slug}', { name: 'g' }, echo('g'));
  app.get('/v/{v:fuzzversion}/status', { name: 'v' }, echo('v'));
  app.get('/mix/{a:int}/{b}/{c:slug}', { name: 'mix' }, echo('mix'));
  app.route('/both/{id:int}', { methods: ['GET', 'PUT'], name: 'both' }, echo('both'));
  app.head('/h', { name: 'h' }, echo('h'));
  app.post('/pets', { requestModel: Pet, name: 'pets' }, echo('pets'));
  app.put('/pets/{id:int}', { requestModel: Pet, name: 'petPut' }, echo('petPut'));
  app.delete('/pets/{id:int}', { name: 'petDelete' }, echo('petDelete'));

  const inner = new Router({ prefix: '/inner', name: 'inner' });
  inner.get('/{id:uuid}/{rest:path}', { name: 'deep' }, echo('api.inner.deep'));
  inner.addRoute(new Group({ path: '/grp', routes: [new Routes({ path: '/{n:float}', name: 'grp', handler: echo('api.inner.grp') })] }));
  const outer = new Router({ prefix: '/api/{v:fuzzversion}', name: 'api' });
  outer.get('/users/{id:int}', { name: 'user' }, echo('api.user'));
  outer.post('/users', { requestModel: Pet, name: 'create' }, echo('api.create'));
  outer.mountRouter(inner);
  app.mountRouter(outer);
  app.addRoute(new Group({ path: '/files', routes: [new Routes({ path: '/{name}/{rest:path}', name: 'file', handler: echo('file') })] }));
  return app;
}

const SEGMENTS = ['', 's', 'p', 'i', 'f', 'u', 'g', 'v', 'v1', 'v0', 'status', 'mix', 'both', 'h', 'pets', 'api', 'users', 'inner', 'grp',
  'files', '42', '0', '-1', '1.5', '1e3', '9007199254740993', '3f2504e0-4f89-11d3-9a0c-0305e82c3301',
  '3F2504E04F8911D39A0C0305E82C3301', 'a-b', 'a--b', '.', '..', '%2e', '%2E%2E', '.%2e', '%2f', '%2F', '%5c', '\\', '%00', '%', '%G1',
  '%e9', '%C3%A9', '%ff%fe', '%F0%9F%98%80', '%ED%A0%80', 'é', '日本', '😀', '?', '#', '#frag', '?q=1', '&', ';', '+', '%20', ':', '@',
  '{id}', '{id:int}', '*', '~'];

const segment = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SEGMENTS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 8 }).map((b) => Array.from(b, (x) => `%${x.toString(16).padStart(2, '0')}`).join('')) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom('a', '9', '%41', 'é'), fc.integer({ min: 50, max: 5000 })).map(([c, n]) => c.repeat(n)) },
);

/** A target: segments joined by `/` (sometimes `//` or `\`), sometimes a query or a fragment. */
const target = fc
  .tuple(
    fc.array(segment, { minLength: 0, maxLength: 6 }),
    fc.constantFrom('/', '/', '/', '//', '\\', '/./', '/../'),
    fc.option(fc.constantFrom('?', '?a=1&b=%zz', '#x', '?%', '?q=' + 'x'.repeat(3000)), { nil: '' }),
  )
  .map(([parts, sep, tail]) => '/' + parts.join(sep) + tail);

/** Text for a str/path value: ASCII, unicode, or anything, percent-encoded or raw. */
const text = fc
  .tuple(fc.oneof(fc.string({ maxLength: 10 }), fc.string({ unit: 'grapheme', maxLength: 6 }), fc.constantFrom('.', '..', 'a b', '%', 'é', '😀', '?', '#', '\\')), fc.boolean())
  .map(([t, encode]) => (encode ? encodeURIComponent(t) : t));
const nat = fc.oneof(fc.nat(), fc.bigInt({ min: 0n, max: 10n ** 20n }).map(String));
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-fA-F]{${n}}$`));
const uuid = fc.tuple(hex(8), hex(4), hex(4), hex(4), hex(12), fc.constantFrom('-', '')).map(([a, b, c, d, e, sep]) => [a, b, c, d, e].join(sep));
const slug = fc.stringMatching(/^[a-z0-9]{1,8}(-[a-z0-9]{1,8}){0,3}$/);
const float = fc.oneof(nat.map(String), fc.tuple(fc.nat(), fc.nat()).map(([i, f]) => `${i}.${f}`), fc.constantFrom('1.', '.5', '1e3', '-1.5'));
const version = nat.map((n) => `v${n}`);
const restPath = fc.array(text, { maxLength: 4 }).map((parts) => parts.join('/'));

/** Targets built on the table's own shapes, so most reach a route (and its converters). */
const shapedTarget = fc.oneof(
  text.map((t) => `/s/${t}`),
  restPath.map((t) => `/p/${t}`),
  nat.map((n) => `/i/${n}`),
  float.map((f) => `/f/${f}`),
  uuid.map((u) => `/u/${u}`),
  slug.map((g) => `/g/${g}`),
  version.map((v) => `/v/${v}/status`),
  fc.tuple(nat, text, slug).map(([a, b, c]) => `/mix/${a}/${b}/${c}`),
  nat.map((n) => `/both/${n}`),
  fc.tuple(version, nat).map(([v, n]) => `/api/${v}/users/${n}`),
  fc.tuple(version, uuid, restPath).map(([v, u, r]) => `/api/${v}/inner/${u}/${r}`),
  fc.tuple(version, float).map(([v, f]) => `/api/${v}/inner/grp/${f}`),
  fc.tuple(text, restPath).map(([n, r]) => `/files/${n}/${r}`),
);

const anyTarget = fc.oneof(target, shapedTarget);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
const method = fc.constantFrom(...METHODS, 'GET', 'GET', 'GET');

/** Chars a request line cannot carry raw; such targets go through the socket test only. */
const invalidForRequestLine = (t: string) => [...t].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) === 0x7f);

describe('routing fuzz', () => {
  const app = buildApp();

  /** The params of a 2xx replayed through urlFor reach the same route with the same params. */
  async function roundTrips(echo: Echo): Promise<void> {
    const name = echo.route === 'h' ? null : echo.route;
    if (name === null || name === 'pets' || name === 'petPut' || name === 'api.create') return;
    const url = app.urlFor(name, echo.params as Record<string, string | number>);
    const again = await app.inject({ method: name === 'petDelete' ? 'DELETE' : 'GET', url });
    expect({ url, status: again.statusCode }).toEqual({ url, status: 200 });
    expect(again.json()).toEqual(echo);
  }

  it('never answers 5xx or a big answer through inject, and named 2xx params round-trip through urlFor', async () => {
    await fc.assert(
      fc.asyncProperty(method, anyTarget, async (m, url) => {
        fc.pre(!invalidForRequestLine(url));
        // light-my-request refuses some targets itself (`/\\`, `//x`): the socket test sends those.
        const response = await app.inject({ method: m, url }).catch((err: Error) => {
          if ((err as { code?: string }).code === 'ERR_INVALID_URL') return null;
          throw err;
        });
        if (response === null) return;
        expect({ url, status: response.statusCode }).toEqual({ url, status: expect.any(Number) });
        expect(response.statusCode).toBeLessThan(500);
        expect(Buffer.byteLength(response.body)).toBeLessThan(Buffer.byteLength(url) + MAX_OVERHEAD_BYTES);
        if (response.statusCode < 300 && m === 'GET' && response.body) await roundTrips(response.json() as Echo);
      }),
      { numRuns: RUNS },
    );
  }, 300_000);

  it('never answers 5xx or a big answer over a real socket, raw bytes included, and still answers afterwards', async () => {
    const served = buildApp();
    const port = await listenOnFreePort(served);
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...METHODS, 'FOO', 'get'), anyTarget, async (m, url) => {
          const bytes = Buffer.from(`${m} ${url} HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n`, 'utf8').toString('latin1');
          const { data } = await rawExchange(port, bytes, { waitMs: 5000 });
          // Nothing at all would be a hang or a reset; Node's parser answers 400 for what it refuses.
          expect(data.startsWith('HTTP/1.1 ')).toBe(true);
          expect({ url, status: statusOf(data) }).toEqual({ url, status: expect.any(Number) });
          expect(statusOf(data)).toBeLessThan(500);
          expect(data.length).toBeLessThan(MAX_SOCKET_RESPONSE_BYTES);
        }),
        { numRuns: SOCKET_RUNS },
      );
      const last = await served.inject('/i/7');
      expect(last.json()).toEqual({ route: 'i', params: { id: 7 } });
      const { data } = await rawExchange(port, 'GET /i/8 HTTP/1.1\r\nHost: fuzz\r\nConnection: close\r\n\r\n', { waitMs: 5000 });
      expect(statusOf(data)).toBe(200);
    } finally {
      await served.close();
    }
  }, 300_000);

  it('answers HEAD on GET routes, 405 with Allow on a known path, 404 elsewhere', async () => {
    expect((await app.inject({ method: 'HEAD', url: '/i/1' })).statusCode).toBe(200);
    const wrong = await app.inject({ method: 'POST', url: '/both/1' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toContain('PUT');
    expect((await app.inject('/api/v2/inner/grp/1.5')).json()).toEqual({ route: 'api.inner.grp', params: { v: 2, n: 1.5 } });
    expect((await app.inject('/nowhere')).statusCode).toBe(404);
  });
});
