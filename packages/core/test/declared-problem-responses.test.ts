/**
 * An error status declared with a description only (`@ApiResponse(401, { description })`, on the
 * class or the method, or `responses: { 404: { description } }`) is still answered with a problem
 * body: the document keeps that body and takes the description.
 */
import { ApiResponse, applyDecorators, Controller, enforceSecurity, Get, HTTPBearer, HTTPException, Param, Security, Tags, TernApp } from '@tern/core';
import { checkContract } from '@tern/core/testing';

const Authenticated = () => applyDecorators(Security('bearerAuth'), ApiResponse(401, { description: 'Not signed in' }), Tags('account'));

@Controller('/account')
@ApiResponse(401, { description: 'Sign in first' })
class Account {
  @Get('/')
  @Security('bearerAuth')
  async current() {
    return { user: 'ada' };
  }

  @Get('/composed')
  @Authenticated()
  async composed() {
    return { user: 'ada' };
  }

  @Get('/notes/{id:int}')
  @Security('bearerAuth')
  @ApiResponse(200, { id: Number })
  @ApiResponse(404, { description: 'No such note' })
  async note(@Param('id') id: number) {
    if (id !== 1) throw new HTTPException(404, `No note ${id}`);
    return { id };
  }
}

function accountApp(): TernApp {
  const app = new TernApp({ logger: false });
  app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
  app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token: string) => (token === 'good' ? { user: 'ada' } : undefined) }));
  app.registerControllers([Account]);
  app.get('/plain/{id:int}', { responses: { 200: { id: Number }, 404: { description: 'Gone' } } }, async (_req, _res, { id }) => {
    throw new HTTPException(404, `No ${String(id)}`);
  });
  app.get('/text', { responses: { 404: { description: 'A text answer' } }, produces: { 404: 'text/plain' } }, async (_req, res) => res.status(404).text('none'));
  return app;
}

type Response = { description: string; content?: Record<string, { schema: { $ref?: string } }>; headers?: Record<string, unknown> };

async function responsesOf(app: TernApp, path: string): Promise<Record<string, Response>> {
  const document = (await app.inject('/openapi.json')).json() as { paths: Record<string, { get: { responses: Record<string, Response> } }> };
  return document.paths[path].get.responses;
}

describe('error statuses declared without a model', () => {
  test('a class-level @ApiResponse(401, { description }) keeps the problem body and its WWW-Authenticate header', async () => {
    const app = accountApp();
    const responses = await responsesOf(app, '/account');
    expect(responses['401'].description).toBe('Sign in first');
    expect(responses['401'].content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(responses['401'].headers).toHaveProperty('WWW-Authenticate');
    const res = await app.inject('/account');
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 401, title: 'Unauthorized' });
  });

  test('the docs sample applyDecorators(Security, ApiResponse(401), Tags) documents the problem with its description', async () => {
    const responses = await responsesOf(accountApp(), '/account/composed');
    expect(responses['401'].description).toBe('Not signed in');
    expect(responses['401'].content?.['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/Problem' });
  });

  test('a method-level 404 the handler throws, and a route option 404, are documented as problems', async () => {
    const app = accountApp();
    const note = await responsesOf(app, '/account/notes/{id}');
    expect(note['404']).toEqual({ description: 'No such note', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
    const res = await app.inject({ url: '/account/notes/2', headers: { authorization: 'Bearer good' } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect((await responsesOf(app, '/plain/{id}'))['404'].content).toHaveProperty('application/problem+json');
  });

  test('a status whose media type `produces` names keeps what the route says', async () => {
    expect((await responsesOf(accountApp(), '/text'))['404'].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
  });

  test('checkContract finds nothing, with and without credentials', async () => {
    await expect(checkContract(accountApp(), { seed: 24, runs: 20, auth: { bearerAuth: 'good' } })).resolves.toBeDefined();
    await expect(checkContract(accountApp(), { seed: 24, runs: 20 })).resolves.toBeDefined();
  });
});
