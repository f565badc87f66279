import {
  APIKey,
  enforceSecurity,
  Group,
  HTTPException,
  MakeConfig,
  OAuth2,
  Routes,
  TernApp,
  TernError,
  TernRangeError,
  TernTypeError,
} from '@tern/core';
import { requestError } from '../src/errors/request-error';
import { SchemaRegistry } from '../src/openapi/schema';
import { defaultModelCompiler } from '../src/validation';

/**
 * Misusing a public function throws a coded TernTypeError / TernRangeError that is still the
 * TypeError / RangeError it was before codes existed (docs/errors.md, last section).
 */

/** What a user can see of an error thrown by `call`. */
function caught(call: () => unknown) {
  try {
    call();
  } catch (err) {
    const e = err as Error & { code?: unknown };
    return {
      code: e.code,
      name: e.name,
      message: e.message,
      typeError: err instanceof TypeError,
      rangeError: err instanceof RangeError,
      ternClass: err instanceof TernTypeError ? 'TernTypeError' : err instanceof TernRangeError ? 'TernRangeError' : 'other',
    };
  }
  throw new Error('expected a throw');
}

const typeError = (code: string, message: string) => ({ code, name: 'TypeError', message, typeError: true, rangeError: false, ternClass: 'TernTypeError' });
const rangeError = (code: string, message: string) => ({ code, name: 'RangeError', message, typeError: false, rangeError: true, ternClass: 'TernRangeError' });

describe('usage errors: coded, and still TypeError / RangeError', () => {
  it('a method helper without a handler is TERN_INVALID_HANDLER', () => {
    const app = new TernApp({ logger: false });
    expect(caught(() => app.get('/users', undefined as never))).toEqual(
      typeError('TERN_INVALID_HANDLER', 'GET /users: a handler function is required.'),
    );
    expect(caught(() => app.post('/users', { tags: ['x'] }, 5 as never))).toMatchObject({ code: 'TERN_INVALID_HANDLER', typeError: true });
  });

  it('Routes and Group with arguments of the wrong type are TERN_INVALID_ARGUMENT / TERN_INVALID_HANDLER', () => {
    expect(caught(() => new Routes({ path: 5 as never, handler: async () => ({}) }))).toEqual(
      typeError('TERN_INVALID_ARGUMENT', 'Routes needs a string path.'),
    );
    expect(caught(() => new Routes({ path: '/x', handler: 'nope' as never }))).toEqual(
      typeError('TERN_INVALID_HANDLER', "Routes '/x': handler must be a function."),
    );
    expect(caught(() => new Group({ path: '/legacy', app: 7 as never }))).toEqual(
      typeError('TERN_INVALID_ARGUMENT', "Group '/legacy': app must be a Node request listener function."),
    );
  });

  it('res.status() outside 200-599 is TERN_INVALID_STATUS, a RangeError', async () => {
    const app = new TernApp({ logger: false });
    app.get('/status', async (req, res) => res.json(caught(() => res.status(42))));
    expect((await app.inject('/status')).json()).toEqual(rangeError('TERN_INVALID_STATUS', "Invalid status code: 42 (a response's status is 200-599)."));
  });

  it('a MakeConfig limit or a maxDepth that is not a positive integer is TERN_INVALID_LIMIT', () => {
    expect(caught(() => new MakeConfig({ bodyLimit: 0 }))).toEqual(
      rangeError('TERN_INVALID_LIMIT', 'MakeConfig: bodyLimit must be a positive integer.'),
    );
    class Geo {}
    expect(caught(() => defaultModelCompiler.compile(Geo, { maxDepth: 1.5 }))).toEqual(
      rangeError('TERN_INVALID_LIMIT', 'maxDepth must be a positive integer, got 1.5'),
    );
  });

  it('security schemes, enforceSecurity and SchemaRegistry given the wrong thing are TERN_INVALID_ARGUMENT', () => {
    expect(caught(() => new APIKey({ name: 'key', in: 'body' as never }))).toMatchObject({ code: 'TERN_INVALID_ARGUMENT', typeError: true });
    expect(caught(() => new OAuth2({ flows: {} }))).toEqual(typeError('TERN_INVALID_ARGUMENT', 'OAuth2 needs at least one flow.'));
    expect(caught(() => enforceSecurity(undefined as never, {}))).toMatchObject({ code: 'TERN_INVALID_ARGUMENT', typeError: true });
    expect(caught(() => new SchemaRegistry(defaultModelCompiler).ref(String, 'response'))).toMatchObject({ code: 'TERN_INVALID_ARGUMENT', typeError: true });
  });

  it('a usage error is not a TernError: code is what every Tern error shares', () => {
    const err = caught(() => new MakeConfig({ maxParamLength: -1 }));
    expect(err.ternClass).toBe('TernRangeError');
    expect(new TernRangeError('TERN_INVALID_LIMIT', 'x') instanceof TernError).toBe(false);
  });

  it('addMiddleware given something other than a function is TERN_INVALID_HANDLER', () => {
    expect(caught(() => new TernApp().addMiddleware('auth' as never))).toMatchObject({ code: 'TERN_INVALID_HANDLER', typeError: true });
  });

  it('addExceptionHandler: a non-function handler, a non-error status, a string each get their code', () => {
    const app = new TernApp();
    expect(caught(() => app.addExceptionHandler(404, 'x' as never))).toMatchObject({ code: 'TERN_INVALID_HANDLER', typeError: true });
    expect(caught(() => app.addExceptionHandler(200, async () => null))).toMatchObject({ code: 'TERN_INVALID_STATUS', ternClass: 'TernRangeError' });
    expect(caught(() => app.addExceptionHandler('404' as never, async () => null))).toMatchObject({ code: 'TERN_INVALID_ARGUMENT', typeError: true });
  });
});

describe('HTTPException and requestError', () => {
  it('keeps new HTTPException(status, detail?, headers?) as it was, with no code', () => {
    const err = new HTTPException(429, 'Slow down', { 'retry-after': '30' });
    expect({ status: err.status, detail: err.detail, headers: err.headers, code: err.code, errors: err.errors, message: err.message }).toEqual({
      status: 429,
      detail: 'Slow down',
      headers: { 'retry-after': '30' },
      code: undefined,
      errors: undefined,
      message: 'Slow down',
    });
  });

  it('takes errors as a fourth argument, and they reach the problem body', async () => {
    const app = new TernApp({ logger: false });
    app.post('/orders', async () => {
      throw new HTTPException(422, 'Bad order', undefined, { errors: [{ path: 'qty', message: 'qty must be positive' }] });
    });
    const response = await app.inject({ method: 'POST', url: '/orders' });
    expect([response.statusCode, response.json()]).toEqual([
      422,
      { type: 'about:blank', title: 'Unprocessable Entity', status: 422, detail: 'Bad order', instance: '/orders', errors: [{ path: 'qty', message: 'qty must be positive' }] },
    ]);
  });

  it('requestError takes the status from the code table', () => {
    const err = requestError('TERN_METHOD_NOT_ALLOWED', 'Method PUT is not allowed.', { headers: { allow: 'GET' }, debugReasons: ['why'] });
    expect({ status: err.status, code: err.code, headers: err.headers, debugReasons: err.debugReasons }).toEqual({
      status: 405,
      code: 'TERN_METHOD_NOT_ALLOWED',
      headers: { allow: 'GET' },
      debugReasons: ['why'],
    });
  });

  it('refuses a code with another status than the table gives it', () => {
    expect(caught(() => new HTTPException(500, 'x', undefined, { code: 'TERN_NOT_FOUND' }))).toEqual(
      rangeError('TERN_INVALID_STATUS', 'HTTPException: TERN_NOT_FOUND is answered 404, not 500.'),
    );
  });

  it('types codes and fixes every field (checked by tsc)', () => {
    const err = requestError('TERN_NOT_FOUND', 'x');
    // Never called: these lines are here for tsc, which fails if any of them compiles.
    const misuses = () => {
      // @ts-expect-error every field is readonly
      err.code = 'TERN_BAD_URL';
      // @ts-expect-error every field is readonly
      err.errors = [];
      // @ts-expect-error a misspelt code does not compile
      requestError('TERN_NOT_FOUNDD', 'x');
      // @ts-expect-error a startup code is not a request code
      requestError('TERN_ROUTE_CONFLICT', 'x');
      // @ts-expect-error a request code is answered, not thrown as a TernError
      new TernError('TERN_NOT_FOUND', 'x');
      // @ts-expect-error a RangeError code is not a TypeError code
      new TernTypeError('TERN_INVALID_STATUS', 'x');
    };
    expect(typeof misuses).toBe('function');
    expect(err.status).toBe(404);
  });
});
