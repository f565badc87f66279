/**
 * The predicates behind the native checks of `constraints.ts`. Each factory reads the decorator's
 * `constraints` once, at compile time, and returns a plain predicate; `undefined` means "these
 * constraint values are unusual, leave the model to class-validator".
 *
 * Every predicate restates the check class-validator 0.15 performs, expression for expression;
 * formats (email, URL, UUID, ISO 8601) call class-validator's own exported checks, which wrap the
 * `validator` package, so their semantics cannot drift (e-mail addresses first meet a fast accept
 * proven to imply validator's answer: `email.ts`). Only constraints registered by
 * class-validator's own decorators get them (`builtins.ts`); `test/validation-equivalence.test.ts`
 * compares both paths on random inputs.
 */
export type Test = (value: unknown) => boolean;

/**
 * `test`, answering `false` where it throws. validator's checks throw on some strings (`isEmail`
 * runs `encodeURI`, which throws `URIError` on a lone surrogate such as `"\ud800"`): a value a
 * check cannot even examine is an invalid value of that field, a 422, never a 500.
 */
export function neverThrows(test: Test): Test {
  return (v) => {
    try {
      return test(v);
    } catch {
      return false;
    }
  };
}

export const isStringValue: Test = (v) => v instanceof String || typeof v === 'string';
export const isBooleanValue: Test = (v) => v instanceof Boolean || typeof v === 'boolean';
export const isIntValue: Test = (v) => typeof v === 'number' && Number.isInteger(v);
export const isDefinedValue: Test = (v) => v !== undefined && v !== null;
export const isEmptyValue: Test = (v) => v === '' || v === null || v === undefined;
export const isNotEmptyValue: Test = (v) => v !== '' && v !== null && v !== undefined;
export const isObjectValue: Test = (v) =>
  v != null && (typeof v === 'object' || typeof v === 'function') && !Array.isArray(v);
export const isDateValue: Test = (v) => v instanceof Date && !isNaN(v.getTime());

export interface NumberOptions {
  allowNaN?: boolean;
  allowInfinity?: boolean;
  maxDecimalPlaces?: number;
}

/**
 * Decimal places the way class-validator counts them (the digits after '.' in `toString()`).
 * Where class-validator throws (an exponent form without '.', such as 1e-7) we read the exponent
 * instead of throwing: the one documented divergence of the native path.
 */
export function decimalPlaces(value: number): number {
  if (value % 1 === 0) return 0;
  const text = value.toString();
  const dot = text.indexOf('.');
  if (dot >= 0) return text.length - dot - 1;
  const exponent = text.indexOf('e-');
  return exponent >= 0 ? Number(text.slice(exponent + 2)) : 0;
}

export function numberTest(options: NumberOptions): Test {
  const { allowNaN, allowInfinity, maxDecimalPlaces } = options;
  return (v) => {
    if (typeof v !== 'number') return false;
    if (v === Infinity || v === -Infinity) return !!allowInfinity;
    if (Number.isNaN(v)) return !!allowNaN;
    if (maxDecimalPlaces !== undefined && decimalPlaces(v) > maxDecimalPlaces) return false;
    return Number.isFinite(v);
  };
}

// validator's isLength counts a surrogate pair, and a character followed by a variation selector,
// as one character. Both involve code units >= 0xD800, so plain strings skip the counting. The
// classes match single UTF-16 code units on purpose (no `u` flag), as validator's do.
// eslint-disable-next-line no-misleading-character-class
const NEEDS_COUNTING = /[\uD800-\uDFFF\uFE0E\uFE0F]/;
const PRESENTATION_SEQUENCES = /[^\uFE0F\uFE0E][\uFE0F\uFE0E]/g;
const SURROGATE_PAIRS = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** String length as validator's `isLength` measures it. */
export function stringLength(s: string): number {
  if (!NEEDS_COUNTING.test(s)) return s.length;
  const sequences = s.match(PRESENTATION_SEQUENCES)?.length ?? 0;
  const pairs = s.match(SURROGATE_PAIRS)?.length ?? 0;
  return s.length - sequences - pairs;
}

/** validator's `isLength(str, { min, max })` behind class-validator's `typeof === 'string'`. */
export function lengthTest(min: unknown, max: unknown): Test {
  // Same coercions as validator: a falsy min is 0, an undefined max is "no maximum".
  const low = (min as number) || 0;
  const high = max as number;
  return (v) => {
    if (typeof v !== 'string') return false;
    const len = stringLength(v);
    return len >= low && (high === undefined || len <= high);
  };
}

export function matchesTest(pattern: unknown, modifiers: unknown): Test | undefined {
  if (Object.prototype.toString.call(pattern) === '[object RegExp]') {
    // The decorator's own RegExp object, used exactly as validator uses it (lastIndex included).
    const re = pattern as RegExp;
    if (isPlainStatelessRegExp(re)) return (v) => typeof v === 'string' && re.test(v);
    return (v) => typeof v === 'string' && !!v.match(re);
  }
  if (typeof pattern !== 'string') return undefined;
  if (modifiers !== undefined && typeof modifiers !== 'string') return undefined;
  const flags = modifiers as string | undefined;
  // validator builds a new RegExp per call; one built here is equivalent unless the flags make the
  // RegExp stateful (g, y), where we keep building one per call.
  let re: RegExp;
  try {
    re = new RegExp(pattern, flags);
  } catch {
    return undefined; // class-validator throws per request; let it.
  }
  if (re.global || re.sticky) return (v) => typeof v === 'string' && !!v.match(new RegExp(pattern, flags));
  return (v) => typeof v === 'string' && re.test(v);
}

/**
 * For a RegExp that is neither global nor sticky, `str.match(re)` and `re.test(str)` both come
 * down to one `RegExpExec`, and neither writes `lastIndex`: `test` answers the same without
 * building the match array. Only for RegExps whose matching is the built-in one.
 */
function isPlainStatelessRegExp(re: RegExp): boolean {
  return (
    Object.getPrototypeOf(re) === RegExp.prototype &&
    !re.global &&
    !re.sticky &&
    !Object.prototype.hasOwnProperty.call(re, 'exec') &&
    !Object.prototype.hasOwnProperty.call(re, Symbol.match)
  );
}

export function enumTest(entity: unknown): Test | undefined {
  if (entity === null || (typeof entity !== 'object' && typeof entity !== 'function')) return undefined;
  // `Array#includes` compares with SameValueZero, as a Set does. The enum is read once: enums
  // are constants, class-validator would re-read it on every call.
  const values = new Set(Object.keys(entity).map((k) => (entity as Record<string, unknown>)[k]));
  return (v) => values.has(v);
}

export function inTest(possible: unknown): Test {
  if (!Array.isArray(possible)) return () => false;
  // class-validator compares with ===: like a Set, except that NaN never matches.
  const values = new Set(possible);
  return (v) => v === v && values.has(v);
}

