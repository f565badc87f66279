/**
 * Static routes are looked up in a map rather than in find-my-way's tree (routing/matcher.ts).
 * Whatever the request path, the route that answers must be the one find-my-way alone would
 * pick from the same table: checked against a bare find-my-way router holding every route,
 * over random paths built from the routes' own text with characters percent-encoded at random
 * (reserved ones included, in either hex case).
 */
import fc from 'fast-check';
import FindMyWay from 'find-my-way';
import { TernApp } from '@tern/core';

/** Each route as Tern declares it and as find-my-way writes it (parameters by position). */
const ROUTES: Array<[tern: string, fmw: string]> = [
  ['/', '/'],
  ['/a', '/a'],
  ['/a/b', '/a/b'],
  ['/a@b', '/a@b'],
  ['/x+y', '/x+y'],
  ['/caf\u00e9', '/caf\u00e9'],
  ['/users/me', '/users/me'],
  ['/users/{id}', '/users/:p0'],
  ['/a/{x}/c', '/a/:p0/c'],
  ['/{any}/b', '/:p0/b'],
  ['/files/{rest:path}', '/files/*'],
];

function ternApp(): TernApp {
  const app = new TernApp({ openapi: { openapiPath: false } });
  for (const [path] of ROUTES) app.get(path, async () => ({ route: path }));
  return app;
}

function reference() {
  const router = FindMyWay({ caseSensitive: true, ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, maxParamLength: Number.MAX_SAFE_INTEGER });
  for (const [tern, shape] of ROUTES) router.on('GET', shape, () => undefined, tern);
  return (path: string): string | null => {
    const found = router.find('GET', path);
    if (!found) return null;
    const values = Object.values(found.params);
    // Tern refuses an empty plain segment (404) where find-my-way matches it.
    return values.some((v) => v === '') && found.store !== '/files/{rest:path}' ? null : (found.store as string);
  };
}

const encode = (char: string, lower: boolean): string =>
  [...Buffer.from(char)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).map((e) => (lower ? e : e.toUpperCase())).join('');

/** A route's text with parameters filled in, each character kept or percent-encoded. */
const requestPath = fc
  .tuple(
    fc.constantFrom(...ROUTES.map(([tern]) => tern)),
    fc.stringMatching(/^[a-z0-9@+]{0,4}$/),
    fc.array(fc.tuple(fc.boolean(), fc.boolean()), { minLength: 24, maxLength: 24 }),
    fc.constantFrom('', '/', 'x'),
  )
  .map(([route, value, choices, tail]) => {
    const text = route.replace(/\{[^}]+\}/g, value) + (route === '/' ? '' : tail);
    return [...text]
      .map((char, i) => {
        const [doEncode, lower] = choices[i % choices.length];
        return doEncode && char !== '/' ? encode(char, lower) : char;
      })
      .join('');
  });

type Outcome = { route: string } | 'refused';

/** What a client sees: the route that answered, or a refusal (404, or 400 for a path that does not decode). */
async function outcomeOf(app: TernApp, path: string): Promise<Outcome | number> {
  const res = await app.inject({ url: path });
  if (res.statusCode === 200) return { route: (res.json() as { route: string }).route };
  return res.statusCode === 404 || res.statusCode === 400 ? 'refused' : res.statusCode;
}

describe('static routes answer as find-my-way alone would', () => {
  const app = ternApp();
  const expected = reference();
  const expectedOutcome = (path: string): Outcome => {
    const route = expected(path);
    return route === null ? 'refused' : { route };
  };

  it.each([
    ['/a', { route: '/a' }],
    ['/users/me', { route: '/users/me' }],
    ['/users/m%65', { route: '/users/me' }],
    ['/caf%C3%A9', { route: '/caf\u00e9' }],
    ['/a%40b', 'refused'],
    ['/x%2By', 'refused'],
    ['/users/ada', { route: '/users/{id}' }],
  ] as Array<[string, Outcome]>)('GET %s', async (path, outcome) => {
    // The table is what find-my-way says, and what Tern answers.
    expect(expectedOutcome(path)).toEqual(outcome);
    expect(await outcomeOf(app, path)).toEqual(outcome);
  });

  it('matches find-my-way on random percent-encoded paths', async () => {
    await fc.assert(
      fc.asyncProperty(requestPath, async (path) => {
        expect(await outcomeOf(app, path)).toEqual(expectedOutcome(path));
      }),
      { numRuns: 600 },
    );
  });

  it('answers HEAD and 405 for static routes as for the others', async () => {
    expect((await app.inject({ method: 'HEAD', url: '/users/me' })).statusCode).toBe(200);
    const refused = await app.inject({ method: 'DELETE', url: '/users/me' });
    expect(refused.statusCode).toBe(405);
    expect(refused.headers.allow).toBe('GET, HEAD');
  });
});
