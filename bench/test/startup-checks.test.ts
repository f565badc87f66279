/**
 * The startup scenario's check of /openapi.json (issue 27): complete and correct for the real
 * Tern apps the scenario starts, and it says what is missing when something is.
 */
import { countOperations, openApiProblems } from '../src/harness/startup-checks';
import { startupApp } from '../src/servers/startup-tern';
import { startupControllerApp } from '../src/servers/startup-tern-controller';

const ROUTES = 30;

async function documentOf(app: ReturnType<typeof startupApp>): Promise<Record<string, unknown>> {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  expect(res.statusCode).toBe(200);
  return res.json() as Record<string, unknown>;
}

describe('startup: the apps and their /openapi.json', () => {
  it('plain routes: every route documented with its integer id, summary and tags; the routes answer', async () => {
    const app = startupApp(ROUTES);
    const doc = await documentOf(app);
    expect(countOperations(doc)).toBe(ROUTES);
    expect(openApiProblems(doc, ROUTES, true)).toEqual([]);
    const res = await app.inject({ method: 'GET', url: '/r2/m9/42' });
    expect(res.json()).toEqual({ route: 29, id: 42 });
    expect((await app.inject({ method: 'GET', url: '/r2/m9/x' })).statusCode).toBeGreaterThanOrEqual(400);
  });

  it('controllers decorated as tsc emits them: the id is a Number parameter, documented as an integer', async () => {
    const app = startupControllerApp(ROUTES);
    const doc = await documentOf(app);
    expect(openApiProblems(doc, ROUTES, false)).toEqual([]);
    const res = await app.inject({ method: 'GET', url: '/r1/m3/7' });
    expect(res.json()).toEqual({ route: 13, id: 7 });
  });

  it('names what is missing or wrong', async () => {
    const doc = await documentOf(startupApp(ROUTES));
    expect(openApiProblems(doc, ROUTES + 10, true)).toEqual([
      'GET /r3/m0/{id} is missing',
      'GET /r3/m1/{id} is missing',
      'GET /r3/m2/{id} is missing',
      'GET /r3/m3/{id} is missing',
      'GET /r3/m4/{id} is missing',
      'and 6 more problems',
    ]);
    const paths = doc.paths as Record<string, { get: { summary?: string; parameters: Array<{ schema: unknown }> } }>;
    delete paths['/r0/m1/{id}']!.get.summary;
    paths['/r1/m0/{id}']!.get.parameters[0]!.schema = { type: 'string' };
    expect(openApiProblems(doc, ROUTES, true)).toEqual([
      'GET /r0/m1/{id}: summary undefined, expected "Read item 1 of resource 0"',
      'GET /r1/m0/{id}: the `id` path parameter\'s schema is {"type":"string"}, not an integer',
    ]);
    // The controllers' document has no summaries: asked for them, the check says so.
    expect(openApiProblems(await documentOf(startupControllerApp(10)), 10, true)[0]).toMatch(/summary undefined/);
  });
});
