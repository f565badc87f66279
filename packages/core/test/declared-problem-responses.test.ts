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
  @ApiResponse(401, { description: 'Token expired' })
  @ApiResponse(422, { description: 'The id is not a number' })
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
  app.get('/plain/{id:int}', { responses: { 200: { id: Number }, 404: { description: 'Gone' } }, problems: { 404: 'No such id' } }, async (_req, _res, { id }) => {
    throw new HTTPException(404, `No ${String(id)}`);
  });
  app.get('/own/{id:int}', { responses: { 200: { id: Number }, 404: { description: 'Not here' } } }, async (_req, res) => res.json({ message: 'not found' }, 404));
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

  test('method-level declarations of automatic statuses (401, 422) keep their problem bodies; the method wins over the class', async () => {
    const app = accountApp();
    const note = await responsesOf(app, '/account/notes/{id}');
    expect(note['401'].description).toBe('Token expired');
    expect(note['401'].content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(note['422']).toEqual({ description: 'The id is not a number', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ValidationProblem' } } } });
    const res = await app.inject({ url: '/account/notes/x', headers: { authorization: 'Bearer good' } });
    expect([res.statusCode, res.headers['content-type']]).toEqual([422, expect.stringMatching(/^application\/problem\+json/)]);
  });

  test('a status Tern does not answer itself stays as declared, unless the route lists it in problems', async () => {
    const app = accountApp();
    // The handler decides the 404's body: `problems` says it is a problem; without it, only the description.
    expect((await responsesOf(app, '/account/notes/{id}'))['404']).toEqual({ description: 'No such note' });
    expect((await responsesOf(app, '/plain/{id}'))['404']).toEqual({ description: 'Gone', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } });
    expect((await responsesOf(app, '/own/{id}'))['404']).toEqual({ description: 'Not here' });
  });

  test('a status whose media type `produces` names keeps what the route says', async () => {
    expect((await responsesOf(accountApp(), '/text'))['404'].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
  });

  test('checkContract finds nothing, with and without credentials', async () => {
    await expect(checkContract(accountApp(), { seed: 24, runs: 20, auth: { bearerAuth: 'good' } })).resolves.toBeDefined();
    await expect(checkContract(accountApp(), { seed: 24, runs: 20 })).resolves.toBeDefined();
  });
});
