/**
 * `checkContract` from `@tern/core/testing`: it must find planted bugs (a handler that throws, a
 * status the document does not list, a field whose type the document and the app disagree on),
 * report a counterexample that replays, and pass an app that keeps its contract.
 */
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { enforceSecurity, HTTPBearer, HTTPException, TernApp } from '@tern/core';
import { checkContract, ContractViolationError, type InjectOptions } from '@tern/core/testing';

class CreateItem {
  @IsString() @MaxLength(20) name: string;
  @IsInt() @Min(0) @Max(100) quantity: number;
}

const ITEM = { id: Number, name: String, quantity: Number };

/** An app that keeps its contract; `plant` adds one bug to it. */
function itemsApp(plant: (app: TernApp) => void = () => {}): TernApp {
  const app = new TernApp();
  const items = new Map<number, { id: number; name: string; quantity: number }>();
  app.get('/items/{id:int}', { responses: { 200: ITEM }, problems: { 404: 'No such item' } }, async (_req, _res, { id }) => {
    const item = items.get(id as number);
    if (!item) throw new HTTPException(404, `No item ${id}`);
    return item;
  });
  app.post('/items', { requestModel: CreateItem, statusCode: 201, responses: { 201: ITEM } }, async (req, res) => {
    const body = req.body as CreateItem;
    const item = { id: items.size + 1, ...body };
    items.set(item.id, item);
    return res.json(item, 201);
  });
  plant(app);
  return app;
}

/** The rejection, as a `ContractViolationError`. */
async function violation(app: TernApp, options: Parameters<typeof checkContract>[1] = {}): Promise<ContractViolationError> {
  const error = await checkContract(app, options).then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(ContractViolationError);
  return error as ContractViolationError;
}

describe('checkContract', () => {
  // The planted 500s are logged by the app; the test reads them from the check's report instead.
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  it('passes an app that keeps its contract, sending every operation valid and broken requests', async () => {
    const app = itemsApp();
    const sent: InjectOptions[] = [];
    const inject = app.inject.bind(app);
    app.inject = (options) => (sent.push(options as InjectOptions), inject(options));
    const reports = await checkContract(app, { runs: 60 });
    expect(reports).toEqual([
      { operation: 'GET /items/{id}', runs: 60 },
      { operation: 'POST /items', runs: 60 },
    ]);
    const posts = sent.filter((r) => r.method === 'POST').map((r) => JSON.parse((r.payload as string | undefined) ?? 'null') as unknown)
      .filter((body): body is Record<string, unknown> => typeof body === 'object' && body !== null);
    // Broken ones among them: a missing name, a quantity out of range, a name too long.
    expect(posts.some((body) => !('name' in body))).toBe(true);
    expect(posts.some((body) => typeof body.quantity === 'number' && (body.quantity > 100 || body.quantity < 0))).toBe(true);
    expect(posts.some((body) => typeof body.name === 'string' && [...body.name].length > 20)).toBe(true);
    // Valid ones carry unicode and properties the model does not declare (its schema allows them).
    expect(posts.some((body) => typeof body.name === 'string' && /[^\x20-\x7e]/.test(body.name))).toBe(true);
    expect(posts.some((body) => Object.keys(body).some((key) => key.startsWith('x_')))).toBe(true);
  });

  it('sends the same requests for the same seed', async () => {
    const urls = async (seed: number) => {
      const app = itemsApp();
      const sent: string[] = [];
      const inject = app.inject.bind(app);
      app.inject = (options) => (sent.push(JSON.stringify(options)), inject(options));
      await checkContract(app, { seed, runs: 10 });
      return sent.slice(1); // the first request reads the document
    };
    expect(await urls(7)).toEqual(await urls(7));
    expect(await urls(7)).not.toEqual(await urls(8));
  });

  it('catches a handler that throws, with a request that replays the failure', async () => {
    const app = () =>
      itemsApp((a) =>
        a.get('/boom', { parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer', minimum: 0, maximum: 1000 } }] }, async (req) => {
          if (Number(req.queryParams.get('n')) > 10) throw new Error('the handler broke');
          return { ok: true };
        }),
      );
    const error = await violation(app(), { seed: 3 });
    expect(error.code).toBe('TERN_CONTRACT_VIOLATION');
    expect(error.operation).toBe('GET /boom');
    expect(error.response.status).toBe(500);
    expect(error.message).toContain('GET /boom answered 500');
    // Shrunk: the smallest n that fails is 11.
    expect(error.request.url).toBe('/boom?n=11');
    expect(error.message).toMatch(/Replay: checkContract\(app, \{ seed: 3, only: \["GET \/boom"\], replay: "[\d:]+" \}\)/);
    const again = await violation(app(), { seed: error.seed, only: [error.operation], replay: error.replay.match(/replay: "([\d:]+)"/)?.[1] });
    expect(again.request).toEqual(error.request);
  });

  it('shrinks a failing body to a small one, and replays it from the seed', async () => {
    // The planted bug: a handler that breaks on any character beyond ASCII.
    const app = () =>
      itemsApp((a) =>
        a.post('/labels', { requestModel: CreateItem, responses: { 200: { ok: Boolean } } }, async (req) => {
          if (/[^\x20-\x7e]/.test((req.body as CreateItem).name)) throw new Error('the handler mangles unicode');
          return { ok: true };
        }),
      );
    const error = await violation(app(), { seed: 5, only: ['POST /labels'] });
    expect(error.message).toContain('POST /labels answered 500');
    expect(error.request).toMatchObject({ kind: 'valid', method: 'POST', url: '/labels', mediaType: 'application/json' });
    // Shrunk: one character the handler trips over, the smallest quantity, no extra property.
    const body = error.request.body as { name: string; quantity: number };
    expect(Object.keys(body).sort()).toEqual(['name', 'quantity']);
    expect([...body.name]).toHaveLength(1);
    expect(body.name).toMatch(/[^\x20-\x7e]/);
    expect(body.quantity).toBe(0);
    expect(error.message).toContain(`body (application/json): ${JSON.stringify(body)}`);
    expect(error.seed).toBe(5);
    const again = await violation(app(), { seed: error.seed, only: [error.operation], replay: error.replay.match(/replay: "([\d:]+)"/)?.[1] });
    expect(again.request).toEqual(error.request);
  });

  it('sends undeclared properties where the schema allows them, and catches a server that refuses them', async () => {
    // The document leaves `additionalProperties` open (Tern strips unknown fields); this handler
    // reads the raw body and refuses any field it does not know.
    const build = () => {
      const app = itemsApp();
      app.post('/raw', { consumes: ['application/json'], responses: { 200: { name: String } }, problems: { 422: 'Unknown field' } }, async (req) => {
        const body = (await req.json()) as Record<string, unknown>;
        const unknown = Object.keys(body).filter((key) => key !== 'name' && key !== 'quantity');
        if (unknown.length > 0) throw new HTTPException(422, `Unknown fields: ${unknown.join(', ')}`);
        const { name, quantity } = body;
        if (typeof name !== 'string' || [...name].length > 20 || !Number.isInteger(quantity) || (quantity as number) < 0 || (quantity as number) > 100) throw new HTTPException(422, 'Invalid item');
        return { name: String(body.name) };
      });
      return app;
    };
    const document = (await build().inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, Record<string, { requestBody: { content: Record<string, unknown> } }>>; components: { schemas: Record<string, { additionalProperties?: boolean }> } }>();
    document.paths['/raw'].post.requestBody.content['application/json'] = { schema: { $ref: '#/components/schemas/CreateItem' } };
    const error = await violation(build(), { document, only: ['POST /raw'] });
    expect(error.message).toContain('POST /raw refused a valid request with 422');
    expect(Object.keys(error.request.body as object).filter((key) => key.startsWith('x_'))).toHaveLength(1);
    // The same app with a schema that forbids them: the extra fields are then the broken requests.
    document.components.schemas.CreateItem.additionalProperties = false;
    await expect(checkContract(build(), { document, only: ['POST /raw'] })).resolves.toEqual(expect.arrayContaining([{ operation: 'POST /raw', runs: 40 }]));
  });

  it('catches a status the operation does not document', async () => {
    const app = itemsApp((a) => a.get('/teapot', { problems: { 404: 'No pot' } }, async (_req, res) => res.text('short and stout', 418)));
    const error = await violation(app);
    expect(error.message).toContain('GET /teapot answered 418, which the operation does not document (it documents 200, 404, 413)');
  });

  it('catches a response field whose type the document and the app disagree on', async () => {
    const app = itemsApp((a) => a.get('/count', { responses: { 200: { count: Number } } }, async () => ({ count: 'many' })));
    const error = await violation(app);
    expect(error.message).toContain("GET /count answered 200 with a body its schema refuses: /count must be number");
  });

  it('catches a documented parameter type the app does not enforce', async () => {
    const app = itemsApp((a) =>
      a.get('/search', { parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer' } }] }, async (req) => ({ limit: req.queryParams.get('limit') ?? null })),
    );
    const error = await violation(app);
    expect(error.request.kind).toBe('invalid');
    expect(error.message).toContain('GET /search accepted a request whose query parameter limit: a string instead of integer (answered 200)');
  });

  it('catches a valid request refused with 422', async () => {
    // The document allows 10 characters; the handler refuses more than 5.
    const app = itemsApp((a) =>
      a.get(
        '/codes',
        { parameters: [{ name: 'code', in: 'query', required: true, schema: { type: 'string', minLength: 1, maxLength: 10 } }], problems: { 422: 'Bad code' } },
        async (req) => {
          const code = req.queryParams.get('code');
          if (!code || code.length > 5) throw new HTTPException(422, 'Missing or too long');
          return { ok: true };
        },
      ),
    );
    const error = await violation(app);
    expect(error.message).toContain('GET /codes refused a valid request with 422');
    // Shrunk to the edge: six characters, the shortest the handler refuses.
    expect(new URL(error.request.url, 'http://x').searchParams.get('code')).toHaveLength(6);
  });

  it('skips operations by name or predicate, and event streams by itself', async () => {
    const app = itemsApp((a) => {
      a.get('/boom', async () => {
        throw new Error('never sent');
      });
      a.get('/events', { sse: true }, async (_req, res) => res.sse((async function* () {
        yield { data: 'tick' };
      })()));
    });
    const reports = await checkContract(app, { skip: ['GET /boom'] });
    expect(reports).toEqual(
      expect.arrayContaining([
        { operation: 'GET /boom', runs: 0, skipped: 'skipped by `skip`' },
        { operation: 'GET /events', runs: 0, skipped: 'an event stream' },
      ]),
    );
    await expect(checkContract(itemsApp((a) => a.get('/boom', async () => Promise.reject(new Error('x')))), { skip: (op) => op.path === '/boom' })).resolves.toBeDefined();
  });

  it('sends the credentials `auth` gives, and fails when they are refused', async () => {
    const build = () => {
      const app = itemsApp((a) => a.get('/me', { security: [{ bearerAuth: [] }], responses: { 200: { user: String } } }, async () => ({ user: 'ada' })));
      app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
      app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token: string) => (token === 'good' ? { user: 'ada' } : undefined) }));
      return app;
    };
    await expect(checkContract(build(), { auth: { bearerAuth: 'good' } })).resolves.toBeDefined();
    // Without credentials a 401 is what the document promises.
    await expect(checkContract(build())).resolves.toBeDefined();
    const error = await violation(build(), { auth: { bearerAuth: 'wrong' } });
    expect(error.message).toContain('GET /me refused a valid request with 401, though it carried the credentials');
    expect(error.request.headers.authorization).toBe('Bearer wrong');
  });

  it('sends the credential given for the roles an operation requires, and fails when it is refused with 403', async () => {
    const build = (holds: (token: string) => string[]) => {
      const app = itemsApp((a) => {
        a.get('/me', { security: [{ bearerAuth: [] }], responses: { 200: { user: String } } }, async () => ({ user: 'ada' }));
        a.get('/admin', { security: [{ bearerAuth: ['admin'] }], responses: { 200: { user: String } } }, async () => ({ user: 'ada' }));
      });
      app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer());
      const tokens = new Set(['admin-token', 'user-token']);
      app.addMiddleware(enforceSecurity(app, { bearerAuth: async (token: string) => (tokens.has(token) ? { roles: holds(token) } : null) }));
      return app;
    };
    const honest = (token: string) => (token === 'admin-token' ? ['admin'] : []);
    await expect(checkContract(build(honest), { auth: { bearerAuth: { admin: 'admin-token' } } })).resolves.toBeDefined();
    // One credential for every operation: a 403 where it lacks the role is what the document promises.
    await expect(checkContract(build(honest), { auth: { bearerAuth: 'user-token' } })).resolves.toBeDefined();
    const error = await violation(build(() => []), { auth: { bearerAuth: { admin: 'admin-token' } } });
    expect(error.message).toContain('GET /admin refused a valid request with 403, though it carried the credential `auth` gives for the roles');
    expect(error.request.headers.authorization).toBe('Bearer admin-token');
  });
});
