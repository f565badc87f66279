/**
 * Issue 45: `checkContract` without false alarms (a list query field, a nullable form field, a
 * business-rule 422), and its reports (every failing operation, the status a fail-closed 500
 * was about, one stack per finding, undeclared response properties). The clean NestJS-style app
 * an outside tester wrote must pass on every seed.
 */
import { IsEmail, IsIn, IsInt, IsISO8601, IsOptional, IsString, isISO8601, Max, MaxLength, Min } from 'class-validator';
import { Type } from 'class-transformer';
import { HTTPException, TernApp } from '@tern/core';
import { checkContract, checkResponse, ContractViolationError, ContractViolationsError, type InjectOptions } from '@tern/core/testing';
import { buildCleanNestApp } from './fixtures/clean-nest-app';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

/** Records what the check sends. */
function recording(app: TernApp): InjectOptions[] {
  const sent: InjectOptions[] = [];
  const inject = app.inject.bind(app);
  app.inject = (options) => (sent.push(options as InjectOptions), inject(options));
  return sent;
}

describe('checkContract on a clean NestJS-style app', () => {
  it('passes on 10 of 10 seeds, with no option set', async () => {
    for (let seed = 1; seed <= 10; seed++) {
      const reports = await checkContract(buildCleanNestApp(), { seed, timeLimit: 30_000 });
      expect(reports.map((report) => [report.operation, report.runs])).toEqual([
        ['GET /products', 40],
        ['POST /photos', 40],
        ['POST /users', 40],
        ['POST /bookings', 40],
      ]);
    }
  }, 120_000);
});

describe('false alarms', () => {
  it('sends one value of a list query field as a valid one-element list, and breaks its items instead (C1)', async () => {
    const app = new TernApp({ logger: false });
    app.get('/numbers', { parameters: [{ name: 'n', in: 'query', schema: { type: 'array', items: { type: 'integer' } } }], problems: { 422: 'Not numbers' } }, async (req) => {
      const values = req.queryParams.getAll('n');
      if (values.some((v) => !/^-?\d+$/.test(v))) throw new HTTPException(422, 'n must be integers');
      return { count: values.length };
    });
    const sent = recording(app);
    await checkContract(app, { runs: 80 });
    // A lone value of the right type went out as a valid request and was accepted; an item of
    // the wrong type went out as the broken one.
    const urls = sent.map((options) => String(options.url));
    expect(urls.some((url) => /^\/numbers\?n=-?\d+$/.test(url))).toBe(true);
    expect(urls).toContain('/numbers?n=not+a+number');
    // The same handler that ignores the items' type is caught, by an item, not by a lone value.
    const lax = new TernApp({ logger: false });
    lax.get('/numbers', { parameters: [{ name: 'n', in: 'query', schema: { type: 'array', items: { type: 'integer' } } }] }, async (req) => ({ count: req.queryParams.getAll('n').length }));
    const error = (await rejection(checkContract(lax))) as ContractViolationError;
    expect(error.message).toContain('accepted a request whose query parameter n, one item: a string instead of integer');
  });

  it('leaves a null form field out instead of writing the text "null", and documents form fields without null (C2)', async () => {
    class Meta {
      @IsString() @MaxLength(20) title: string;
      @IsOptional() @Type(() => Number) @IsInt() year?: number;
    }
    const route = (consumes: string[]) => {
      const app = new TernApp({ logger: false });
      app.post('/meta', { requestModel: Meta, consumes, responses: { 200: { title: String } } }, async (req) => ({ title: (req.body as Meta).title }));
      return app;
    };
    const form = route(['multipart/form-data']);
    const sent = recording(form);
    await checkContract(form, { runs: 60 });
    const forms = sent.filter((options) => String(options.headers?.['content-type'] ?? '').startsWith('multipart/'));
    expect(forms.length).toBeGreaterThan(0);
    expect(forms.some((options) => String(options.payload).includes('\r\n\r\nnull\r\n'))).toBe(false);
    // The document: JSON may send null, a form may not.
    const document = (await route(['multipart/form-data', 'application/json']).inject('/openapi.json')).json();
    const content = document.paths['/meta'].post.requestBody.content;
    expect(content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Meta' });
    expect(content['multipart/form-data'].schema).toEqual({ $ref: '#/components/schemas/Meta-Form' });
    expect(document.components.schemas.Meta.properties.year.type).toEqual(['integer', 'null']);
    expect(document.components.schemas['Meta-Form'].properties.year.type).toBe('integer');
    // Read from forms only, the model is documented by its form reading alone (no unused component).
    const formOnly = (await form.inject('/openapi.json')).json();
    expect(Object.keys(formOnly.components.schemas)).toEqual(expect.arrayContaining(['Meta-Form']));
    expect(formOnly.components.schemas).not.toHaveProperty('Meta');
  });

  describe('business-rule refusals (C3)', () => {
    class SignUp {
      // Three names: the check cannot help sending one twice.
      @IsIn(['ada', 'grace', 'edsger']) name: string;
    }
    /** Refuses a name it has seen: what the check cannot know is taken. */
    function signUps(options: Record<string, unknown> = {}): TernApp {
      const app = new TernApp({ logger: false });
      const taken = new Set<string>();
      app.post('/users', { requestModel: SignUp, responses: { 200: { name: String } }, problems: { 422: 'The name is taken' }, ...options }, async (req) => {
        const { name } = req.body as SignUp;
        if (taken.has(name)) throw new HTTPException(422, 'name has already been taken');
        taken.add(name);
        return { name };
      });
      return app;
    }

    it('fails a documented business 422 by default, and accepts it when the app says a valid request may get it', async () => {
      expect((await rejection(checkContract(signUps()))).message).toContain('POST /users refused a valid request with 422');
      await expect(checkContract(signUps(), { mayRefuse: { 'POST /users': [422] } })).resolves.toEqual([{ operation: 'POST /users', runs: 40 }]);
      // Or the document says so, from a route option.
      const app = signUps({ 'x-may-refuse': [422] });
      expect((await app.inject('/openapi.json')).json().paths['/users'].post['x-may-refuse']).toEqual([422]);
      await expect(checkContract(app)).resolves.toEqual([{ operation: 'POST /users', runs: 40 }]);
    });

    it("still fails Tern's own 422 to a valid request where business refusals are allowed", async () => {
      // The document promises ids up to 2^40; the route's converter stops at 2^31-1 (a 422 of Tern's).
      const strict = new TernApp({ logger: false });
      strict.get('/n/{n:int32}', { responses: { 200: { ok: Boolean } } }, async () => ({ ok: true }));
      const document = (await strict.inject('/openapi.json')).json();
      document.paths['/n/{n}'].get.parameters[0].schema.maximum = 2 ** 40;
      const own = await rejection(checkContract(strict, { document, mayRefuse: { 'GET /n/{n}': [422] } }));
      expect(own.message).toContain("refused a valid request with 422 (TERN_INVALID_PATH_PARAM: '2147483648' is larger than 2147483647");
    });

    it('keeps generated emails unique across a run, so shrinking a real failure does not turn it into a collision', async () => {
      class Account {
        @IsEmail() email: string;
        @IsInt() @Min(0) @Max(1000) age: number;
      }
      const app = new TernApp({ logger: false });
      const taken = new Set<string>();
      app.post('/accounts', { requestModel: Account, responses: { 200: { email: String } }, problems: { 422: 'Taken' } }, async (req) => {
        const { email, age } = req.body as Account;
        if (taken.has(email)) throw new HTTPException(422, 'email has already been taken');
        taken.add(email);
        // The planted bug the check must report.
        if (age > 10) throw new Error('the handler broke');
        return { email };
      });
      const error = await rejection(checkContract(app, { mayRefuse: {} }));
      expect(error.message).toContain('POST /accounts answered 500');
      expect((error as ContractViolationError).request.body).toMatchObject({ age: 11 });
    });
  });
});

describe('reports', () => {
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => {}));
  afterEach(() => jest.restoreAllMocks());

  function twoBugs(): TernApp {
    const app = new TernApp();
    app.get('/boom', { responses: { 200: { ok: Boolean } } }, async () => {
      throw new Error('the handler broke');
    });
    app.get('/fine', { responses: { 200: { ok: Boolean } } }, async () => ({ ok: true }));
    app.get('/teapot', { responses: { 200: { ok: Boolean } } }, async (_req, res) => res.text('short and stout', 418));
    return app;
  }

  it('stops at the first failing operation by default, and collects every one with allFailures', async () => {
    const first = await rejection(checkContract(twoBugs()));
    expect(first).toBeInstanceOf(ContractViolationError);
    expect(first.message).toContain('GET /boom answered 500');
    const all = (await rejection(checkContract(twoBugs(), { allFailures: true }))) as ContractViolationsError;
    expect(all).toBeInstanceOf(ContractViolationsError);
    expect(all.code).toBe('TERN_CONTRACT_VIOLATION');
    expect(all.violations.map((v) => v.operation)).toEqual(['GET /boom', 'GET /teapot']);
    expect(all.reports.map((r) => r.operation)).toEqual(['GET /boom', 'GET /fine', 'GET /teapot']);
    expect(all.message).toMatch(/^2 operations broke the contract:/);
    expect(all.message).toContain('GET /teapot answered 418');
    expect(all.message.match(/Replay: /g)).toHaveLength(2);
  });

  it('prints the app stack of a 500 once per finding, not once per shrinking step', async () => {
    const app = new TernApp();
    app.get('/boom', { parameters: [{ name: 'n', in: 'query', required: true, schema: { type: 'integer', minimum: 0, maximum: 1000 } }], responses: { 200: { ok: Boolean } } }, async (req) => {
      if (Number(req.queryParams.get('n')) > 10) throw new Error('the handler broke');
      return { ok: true };
    });
    const error = console.error as jest.Mock;
    await rejection(checkContract(app, { seed: 3 }));
    // Shrinking took several failing steps to reach n=11; one report reached the logger.
    expect(error.mock.calls.filter((call) => String(call[0]).includes('GET /boom')).length).toBe(1);
    // And the app reports again afterwards.
    await app.inject('/boom?n=500');
    expect(error.mock.calls.filter((call) => String(call[0]).includes('GET /boom')).length).toBe(2);
  });

  it('says which status a fail-closed 500 was about', async () => {
    const app = new TernApp();
    app.post('/things', { responses: { 200: { id: Number } } }, async (_req, res) => res.json({ id: 1 }, 201));
    const direct = await app.inject({ method: 'POST', url: '/things' });
    expect(direct.json()).toMatchObject({ code: 'TERN_UNDECLARED_RESPONSE_STATUS', detail: 'The route sent JSON with status 201, which it declares no response for: declare 201 in its responses.' });
    const error = await rejection(checkContract(app));
    expect(error.message).toContain('POST /things answered 500 (The route sent JSON with status 201, which it declares no response for');
  });

  it('flags a property a response does not declare on a route with filtering off, and not on a filtered one', async () => {
    const user = () => ({ id: 1, name: 'Ada', passwordHash: 'secret' });
    const filtered = new TernApp();
    filtered.get('/me', { responses: { 200: { id: Number, name: String } } }, async () => user());
    await expect(checkContract(filtered)).resolves.toEqual([{ operation: 'GET /me', runs: 40 }]);
    const leaking = new TernApp();
    leaking.get('/me', { responses: { 200: { id: Number, name: String } }, responseFiltering: false }, async () => user());
    const error = await rejection(checkContract(leaking));
    expect(error.message).toContain('GET /me answered 200 with a property its schema does not declare');
    expect(error.message).toContain('passwordHash');
    await expect(checkContract(leaking, { allowUndeclaredProperties: true })).resolves.toEqual([{ operation: 'GET /me', runs: 40 }]);
  });

  it('documents response models closed with closedResponses, so any tool sees the leak; request readings stay open', async () => {
    class Profile {
      @IsString() @MaxLength(20) name: string;
    }
    const build = (closedResponses: boolean) => {
      const app = new TernApp({ openapi: { closedResponses } });
      app.put('/profile', { requestModel: Profile, responses: { 200: Profile } }, async (req) => req.body as Profile);
      app.get('/profile', { responses: { 200: Profile }, responseFiltering: false }, async () => ({ name: 'Ada', passwordHash: 'secret' }));
      app.get('/inline', { responses: { 200: { id: Number } } }, async () => ({ id: 1 }));
      return app;
    };
    const open = (await build(false).inject('/openapi.json')).json();
    expect(open.components.schemas.Profile.additionalProperties).toBeUndefined();
    expect(open.components.schemas).not.toHaveProperty('Profile-Input');
    const app = build(true);
    const document = (await app.inject('/openapi.json')).json();
    expect(document.components.schemas.Profile.additionalProperties).toBe(false);
    expect(document.components.schemas['Profile-Input'].additionalProperties).toBeUndefined();
    expect(document.paths['/profile'].put.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Profile-Input' });
    expect(document.paths['/inline'].get.responses[200].content['application/json'].schema.additionalProperties).toBe(false);
    // A client's own check of the answer, with nothing but the document, sees the leak.
    const answer = await app.inject('/profile');
    expect(checkResponse(document, 'GET', '/profile', { status: answer.statusCode, contentType: String(answer.headers['content-type']), body: answer.body })).toContain('must NOT have additional properties');
    // The filtered routes keep the closed document, extra request properties included.
    await expect(checkContract(build(true), { skip: ['GET /profile'] })).resolves.toHaveLength(3);
  });
});

describe('where the document and the server part', () => {
  class Note {
    @IsString() @MaxLength(20) text: string;
  }

  it('documents the 400 a route with a form before JSON gives malformed JSON (N1)', async () => {
    const app = new TernApp();
    app.post('/notes', { requestModel: Note, consumes: ['application/x-www-form-urlencoded', 'application/json'], responses: { 200: { text: String } } }, async (req) => req.body as Note);
    const answer = await app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'application/json' }, payload: '{"text":' });
    expect(answer.statusCode).toBe(400);
    expect((await app.inject('/openapi.json')).json().paths['/notes'].post.responses).toHaveProperty('400');
  });

  it('documents the 400 of a malformed multipart body (N3)', async () => {
    const app = new TernApp();
    app.post('/notes', { requestModel: Note, consumes: ['multipart/form-data'], responses: { 200: { text: String } } }, async (req) => req.body as Note);
    const answer = await app.inject({ method: 'POST', url: '/notes', headers: { 'content-type': 'multipart/form-data; boundary=x' }, payload: '--x\r\ncontent-disposition: form-data; name="text"\r\n\r\nhi' });
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ code: 'TERN_INVALID_MULTIPART' });
    expect((await app.inject('/openapi.json')).json().paths['/notes'].post.responses).toHaveProperty('400');
  });

  it('documents @IsISO8601({ strict: true }) with a pattern that admits exactly the date-times it accepts (N2)', async () => {
    class Booking {
      @IsISO8601({ strict: true }) startsAt: string;
      @IsISO8601() loosely: string;
    }
    const app = new TernApp();
    app.post('/bookings', { requestModel: Booking, responses: { 200: { ok: Boolean } } }, async () => ({ ok: true }));
    const properties = (await app.inject('/openapi.json')).json().components.schemas.Booking.properties;
    const strict = new RegExp(properties.startsAt.pattern);
    const lenient = new RegExp(properties.loosely.pattern);
    expect(strict.test('2026-02-29T00:00:00Z')).toBe(false);
    expect(lenient.test('2026-02-29T00:00:00Z')).toBe(true);
    // Every calendar day of years around each rule (leap, century, 400, below 100), and days no month has.
    const disagreements: string[] = [];
    for (const year of ['0000', '0001', '0099', '0100', '0104', '0400', '1900', '1996', '2000', '2023', '2024', '2026', '2100', '2400', '9999']) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const value = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T12:30:00Z`;
          if (strict.test(value) !== isISO8601(value, { strict: true })) disagreements.push(value);
        }
      }
    }
    expect(disagreements).toEqual([]);
    const refused = await app.inject({ method: 'POST', url: '/bookings', payload: { startsAt: '0001-01-01T00:00:00Z', loosely: '2026-01-01T00:00:00Z' } });
    expect(refused.statusCode).toBe(422);
    expect(strict.test('0001-01-01T00:00:00Z')).toBe(false);
  });

  it("names the document's server, so a default app passes Redocly's no-empty-servers", async () => {
    const app = new TernApp();
    app.get('/ping', { responses: { 200: { ok: Boolean } } }, async () => ({ ok: true }));
    expect((await app.inject('/openapi.json')).json().servers).toEqual([{ url: '/' }]);
  });
});
