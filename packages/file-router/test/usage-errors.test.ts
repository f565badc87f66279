import { TernApp, TernTypeError } from '@tern/core';
import { configureTemplates, FileRouter, markAsRoute, render } from '@tern/file-router';

/** The file router's misuse errors carry Tern's codes and stay TypeErrors (docs/errors.md). */

function codeOf(call: () => unknown): { code: unknown; typeError: boolean; ternTypeError: boolean } {
  try {
    call();
  } catch (err) {
    return { code: (err as { code?: unknown }).code, typeError: err instanceof TypeError, ternTypeError: err instanceof TernTypeError };
  }
  throw new Error('expected a throw');
}

const coded = (code: string) => ({ code, typeError: true, ternTypeError: true });

describe('file router usage errors', () => {
  it('a handler that is not a function is TERN_INVALID_HANDLER', () => {
    expect(codeOf(() => markAsRoute({ summary: 'x' }, undefined as never))).toEqual(coded('TERN_INVALID_HANDLER'));
    expect(codeOf(() => render('page.html', 'nope' as never))).toEqual(coded('TERN_INVALID_HANDLER'));
  });

  it('options of the wrong type or shape are TERN_INVALID_ARGUMENT', () => {
    expect(codeOf(() => markAsRoute({ colour: 'red' } as never, async () => ({})))).toEqual(coded('TERN_INVALID_ARGUMENT'));
    expect(codeOf(() => configureTemplates({} as never))).toEqual(coded('TERN_INVALID_ARGUMENT'));
    expect(codeOf(() => new FileRouter({} as never))).toEqual(coded('TERN_INVALID_ARGUMENT'));
    expect(codeOf(() => new FileRouter(new TernApp({ logger: false }), { exemptPaths: ['/'] }))).toEqual(coded('TERN_INVALID_ARGUMENT'));
  });
});
