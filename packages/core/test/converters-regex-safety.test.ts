import { Convertor, registerUrlConvertor, TernApp, TernError } from '@tern/core';
import { convertorForPath } from '../src/converters/registry';

/** The pattern of the hardening report: 29 characters ending in `!` held the event loop 4.8 s. */
const CATASTROPHIC = '([a-z0-9]+-?)+';

class PatternConvertor extends Convertor<string> {
  constructor(public regex: string) {
    super();
  }
  convert(value: string): string {
    return value;
  }
  toString(value: string): string {
    return value;
  }
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (err) {
    return err;
  }
  return undefined;
}

async function readyError(app: TernApp): Promise<unknown> {
  return app.ready().then(
    () => undefined,
    (err: unknown) => err,
  );
}

function echoApp(path: string): TernApp {
  const app = new TernApp({ logger: false });
  app.get(path, async (req, res, params) => params);
  return app;
}

describe('registering a converter whose regex can backtrack catastrophically', () => {
  it('is refused with TERN_UNSAFE_CONVERTER_REGEX, and the name stays unknown', async () => {
    const error = thrownBy(() => registerUrlConvertor('dashedWords', new PatternConvertor(CATASTROPHIC)));
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
    expect((error as TernError).message).toContain(`Converter 'dashedWords' has regex '${CATASTROPHIC}'`);
    expect((error as TernError).message).toContain('allowUnsafeRegex');

    const startup = await readyError(echoApp('/d/{v:dashedWords}'));
    expect((startup as TernError).code).toBe('TERN_UNKNOWN_CONVERTER');
  });

  it.each(['(a+)+', '(\\w+\\s?)*', '(.*a){12}', '(?:x|[a-z]+)*'])('refuses %s too', (regex) => {
    const error = thrownBy(() => registerUrlConvertor('nested', new PatternConvertor(regex)));
    expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
  });

  // Star height 1, so safe-regex2 passed them; the alternatives overlap, and 28 characters ending
  // in '!' held the event loop 4-6 s.
  it.each(['(?:\\w|\\d)+', '(?:[a-z0-9]|[a-z0-9-])+', '(a|a)*', '(?:\\d|\\w)*x'])('refuses the overlapping alternation %s', (regex) => {
    const error = thrownBy(() => registerUrlConvertor('overlapping', new PatternConvertor(regex)));
    expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
    expect((error as TernError).message).toContain(`has regex '${regex}', which can backtrack catastrophically`);
  });

  it('is accepted with { allowUnsafeRegex: true }, and its routes serve', async () => {
    registerUrlConvertor('checkedByHand', new PatternConvertor(CATASTROPHIC), { allowUnsafeRegex: true });
    const app = echoApp('/d/{v:checkedByHand}');
    const response = await app.inject('/d/abc-def');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ v: 'abc-def' });
  });

  it('is refused again when the name is registered anew without the opt-out', () => {
    registerUrlConvertor('reRegistered', new PatternConvertor(CATASTROPHIC), { allowUnsafeRegex: true });
    const error = thrownBy(() => registerUrlConvertor('reRegistered', new PatternConvertor(CATASTROPHIC)));
    expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
  });

  it('still refuses an invalid regex with the opt-out, as TERN_INVALID_CONVERTER', () => {
    const error = thrownBy(() => registerUrlConvertor('broken', new PatternConvertor('(a+'), { allowUnsafeRegex: true }));
    expect((error as TernError).code).toBe('TERN_INVALID_CONVERTER');
  });
});

describe('ordinary patterns', () => {
  const builtIns = ['str', 'path', 'int', 'float', 'uuid', 'slug'];

  it.each(builtIns)('the built-in %s serves a route', async (name) => {
    const app = echoApp(`/b/{v:${name}}`);
    await expect(app.ready()).resolves.toBeUndefined();
  });

  it.each(builtIns)("a custom converter reusing the built-in %s's regex registers", (name) => {
    const regex = convertorForPath(name, 'test')?.regex as string;
    expect(() => registerUrlConvertor(`like_${name}`, new PatternConvertor(regex))).not.toThrow();
  });

  // The last two were refused by safe-regex2 (a quantifier inside a quantified group), though
  // each repetition starts with a character the one before cannot end with.
  it.each(['v[0-9]+', '[a-z]{2}-[A-Z]{2}', '[a-z0-9-]+', '[0-9]{4}-[0-9]{2}-[0-9]{2}', 'v[0-9]+(?:\\.[0-9]+){0,2}', '[a-z]+(?:\\.[a-z]+)*'])('%s registers and serves', async (regex) => {
    const name = `plain${regex.length}`;
    registerUrlConvertor(name, new PatternConvertor(regex));
    await expect(echoApp(`/p/{v:${name}}`).ready()).resolves.toBeUndefined();
  });
});

describe('a converter whose regex is changed after registration', () => {
  it('fails ready() with TERN_UNSAFE_CONVERTER_REGEX naming the route', async () => {
    const locale = new PatternConvertor('[a-z]{2}-[A-Z]{2}');
    registerUrlConvertor('locale', locale);
    locale.regex = CATASTROPHIC;

    const error = await readyError(echoApp('/pages/{lang:locale}'));
    expect(error).toBeInstanceOf(TernError);
    expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
    expect((error as TernError).message).toContain("'/pages/{lang:locale}': converter 'locale' has regex");
  });

  it('fails ready() for a built-in too', async () => {
    const int = convertorForPath('int', 'test') as Convertor<unknown>;
    const original = int.regex;
    int.regex = '([0-9]+)+';
    try {
      const error = await readyError(echoApp('/n/{id:int}'));
      expect((error as TernError).code).toBe('TERN_UNSAFE_CONVERTER_REGEX');
    } finally {
      int.regex = original;
    }
  });

  it('fails ready() with TERN_INVALID_CONVERTER when the regex is no longer a string', async () => {
    const code = new PatternConvertor('[A-Z]{3}');
    registerUrlConvertor('currency', code);
    (code as unknown as { regex: unknown }).regex = 42;
    const error = await readyError(echoApp('/fx/{c:currency}'));
    expect((error as TernError).code).toBe('TERN_INVALID_CONVERTER');
  });
});
