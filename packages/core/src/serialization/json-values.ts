/**
 * Writing single values exactly as `JSON.stringify` writes them, faster where it is safe to.
 * Every helper returns `undefined` where `JSON.stringify` would leave the value out (an object
 * property is dropped, an array item becomes `null`).
 */
import { types } from 'node:util';

/**
 * The Date methods `JSON.stringify` ends up calling on a date (`toJSON`, which converts with
 * `Symbol.toPrimitive`/`valueOf`, then calls `toISOString`), as they were when Tern loaded, if
 * they were still the engine's own then. A date whose methods differ (a subclass, a patched
 * prototype) is written by `JSON.stringify` itself.
 */
const DATE_METHODS = nativeOnly([
  Date.prototype.toJSON,
  Date.prototype.toISOString,
  Date.prototype.valueOf,
  Date.prototype[Symbol.toPrimitive],
]);

function nativeOnly(methods: Function[]): Function[] {
  const native = methods.every((method) => Function.prototype.toString.call(method).includes('[native code]'));
  return native ? methods : methods.map(() => () => undefined);
}

/**
 * Characters `JSON.stringify` escapes, plus every surrogate: a paired one is written as is and a
 * lone one escaped, and telling them apart is `JSON.stringify`'s job.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must be found
const NEEDS_CARE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/**
 * A string as a JSON string literal. Most strings need no escaping: a short one is scanned by
 * hand (cheaper than a regular expression for a few characters), a longer one with a regular
 * expression; any string that needs escaping goes to `JSON.stringify`, the fastest escaper.
 *
 * @example
 * quote('Ada'); // '"Ada"'
 * quote('say "hi"'); // '"say \\"hi\\""'
 */
export function quote(text: string): string {
  const length = text.length;
  if (length < 42) {
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code < 32 || code === 34 || code === 92 || (code >= 0xd800 && code <= 0xdfff)) return JSON.stringify(text);
    }
    return '"' + text + '"';
  }
  if (length < 5000 && !NEEDS_CARE.test(text)) return '"' + text + '"';
  return JSON.stringify(text);
}

/**
 * A number as JSON: `NaN` and the infinities become `null`, `-0` becomes `0`.
 *
 * @example
 * writeNumber(-0); // '0'
 */
export function writeNumber(value: number): string {
  return Number.isFinite(value) ? '' + value : 'null';
}

/** Time values of 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z: four-digit years. */
const FOUR_DIGIT_YEARS_FROM = -62167219200000;
const FOUR_DIGIT_YEARS_TO = 253402300799999;

/**
 * A `Date` with the engine's own methods (see `isStandardDate`): its ISO string, or `null` for an invalid date.
 * The string is computed from the time value (`toISOString` is several times slower in V8);
 * years outside 0–9999, written with six digits and a sign, are left to `toISOString`.
 *
 * @example
 * writeDate(new Date(0)); // '"1970-01-01T00:00:00.000Z"'
 */
export function writeDate(value: Date): string {
  const time = value.getTime();
  if (hasFourDigitYear(time)) {
    writeIsoDate(DATE_TEXT, 0, time);
    return DATE_TEXT.toString('latin1', 0, ISO_DATE_LENGTH);
  }
  return Number.isNaN(time) ? 'null' : '"' + value.toISOString() + '"';
}

/** Bytes of `"YYYY-MM-DDTHH:mm:ss.sssZ"`, quotes included. */
export const ISO_DATE_LENGTH = 26;

/** One quoted date, read back as one flat string (joined with `+`, it was a rope of a dozen parts). */
const DATE_TEXT = Buffer.alloc(ISO_DATE_LENGTH);

/** True for a time value whose ISO string has a four-digit year (what `writeIsoDate` writes). */
export function hasFourDigitYear(time: number): boolean {
  return time >= FOUR_DIGIT_YEARS_FROM && time <= FOUR_DIGIT_YEARS_TO;
}

const ZERO = 48;

/**
 * Writes the quoted ISO 8601 string of a time value with a four-digit year as
 * `ISO_DATE_LENGTH` ASCII bytes at `at` (days to civil date: H. Hinnant's algorithm).
 *
 * @example
 * writeIsoDate(bytes, 0, 0); // bytes start with "1970-01-01T00:00:00.000Z", quotes included
 */
export function writeIsoDate(out: Uint8Array, at: number, time: number): void {
  let days = Math.floor(time / 86_400_000);
  let ms = time - days * 86_400_000;
  const hours = (ms / 3_600_000) | 0;
  ms -= hours * 3_600_000;
  const minutes = (ms / 60_000) | 0;
  ms -= minutes * 60_000;
  const seconds = (ms / 1000) | 0;
  ms -= seconds * 1000;
  days += 719_468; // days from 0000-03-01, so that a leap day ends its year
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra =
    ((dayOfEra - ((dayOfEra / 1460) | 0) + ((dayOfEra / 36_524) | 0) - ((dayOfEra / 146_096) | 0)) / 365) | 0;
  const dayOfYear = dayOfEra - (365 * yearOfEra + ((yearOfEra / 4) | 0) - ((yearOfEra / 100) | 0));
  const shiftedMonth = ((5 * dayOfYear + 2) / 153) | 0;
  const day = dayOfYear - (((153 * shiftedMonth + 2) / 5) | 0) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  out[at] = 34; // "
  twoDigits(out, at + 1, (year / 100) | 0);
  twoDigits(out, at + 3, year % 100);
  out[at + 5] = 45; // -
  twoDigits(out, at + 6, month);
  out[at + 8] = 45; // -
  twoDigits(out, at + 9, day);
  out[at + 11] = 84; // T
  twoDigits(out, at + 12, hours);
  out[at + 14] = 58; // :
  twoDigits(out, at + 15, minutes);
  out[at + 17] = 58; // :
  twoDigits(out, at + 18, seconds);
  out[at + 20] = 46; // .
  out[at + 21] = ZERO + ((ms / 100) | 0);
  twoDigits(out, at + 22, ms % 100);
  out[at + 24] = 90; // Z
  out[at + 25] = 34; // "
}

function twoDigits(out: Uint8Array, at: number, value: number): void {
  out[at] = ZERO + ((value / 10) | 0);
  out[at + 1] = ZERO + (value % 10);
}

/**
 * True for a `Date` that `writeDate` may write: its methods are the engine's own.
 *
 * @example
 * isStandardDate(new Date()); // true
 */
export function isStandardDate(value: unknown): value is Date {
  return (
    value instanceof Date &&
    value.toJSON === DATE_METHODS[0] &&
    value.toISOString === DATE_METHODS[1] &&
    value.valueOf === DATE_METHODS[2] &&
    value[Symbol.toPrimitive] === DATE_METHODS[3]
  );
}

/**
 * Any value, as `JSON.stringify` writes it under the property `key` (which a `toJSON` method
 * receives). Plain data without `toJSON` goes to `JSON.stringify` whole: for that it is the
 * fastest writer there is.
 *
 * @example
 * writeAny({ a: [1, undefined] }, 'data'); // '{"a":[1,null]}'
 * writeAny(undefined, 'data'); // undefined
 */
export function writeAny(value: unknown, key: string | number): string | undefined {
  switch (typeof value) {
    case 'string':
      return quote(value);
    case 'number':
      return writeNumber(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
    case 'symbol':
      return undefined;
    case 'object':
      if (value === null) return 'null';
      if (isStandardDate(value)) return writeDate(value);
      if (typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
        return Array.isArray(value) ? (writeStrings(value) ?? JSON.stringify(value)) : JSON.stringify(value);
      }
      return writeUnderKey(value, key);
    case 'function':
      // A function is dropped, unless (oddly) it has a toJSON, which JSON.stringify calls.
      return typeof (value as { toJSON?: unknown }).toJSON === 'function' ? writeUnderKey(value, key) : undefined;
    default:
      // bigint: JSON.stringify throws unless BigInt.prototype.toJSON was defined; let it decide.
      return writeUnderKey(value, key);
  }
}

/**
 * A short list of strings (`tags`, `roles`), the commonest undeclared array in a response, or
 * `undefined` for anything else. Calling `JSON.stringify` costs a fixed setup that dominates
 * for a few short strings; an item that is not a string (a hole included) sends the whole list
 * back to it.
 */
function writeStrings(list: unknown[]): string | undefined {
  const length = list.length;
  if (length > 16) return undefined;
  let out = '[';
  for (let i = 0; i < length; i++) {
    const item = list[i];
    if (typeof item !== 'string') return undefined;
    out += (i === 0 ? '' : ',') + quote(item);
  }
  return out + ']';
}

/**
 * `JSON.stringify` of the value as the property `key` of an object, so a `toJSON` method gets
 * the key it would get there. Only for values with `toJSON` (and bigints): it costs a wrapper.
 */
function writeUnderKey(value: unknown, key: string | number): string | undefined {
  const name = String(key);
  const text = JSON.stringify({ [name]: value });
  if (text.length === 2) return undefined; // '{}': the value was left out
  return text.slice(JSON.stringify(name).length + 2, -1);
}

const OBJECT_VALUE_OF = Object.prototype.valueOf;

/**
 * True for `new Number()`, `new String()`, `new Boolean()` and `Object(1n)`, which
 * `JSON.stringify` writes as the primitive inside. Objects that inherit `Object.prototype`'s
 * `valueOf` (plain objects, class instances) are answered with one property load; the others
 * get the brand checks `JSON.stringify` itself makes (not `instanceof`, which a prototype fools).
 */
export function isBoxedPrimitive(value: object): boolean {
  if ((value as { valueOf?: unknown }).valueOf === OBJECT_VALUE_OF) return false;
  return types.isBoxedPrimitive(value) && !types.isSymbolObject(value);
}

/**
 * The primitive inside a boxed one, obtained the way `JSON.stringify` obtains it.
 *
 * @example
 * unbox(new Number(4)); // 4
 */
export function unbox(value: object): unknown {
  if (types.isNumberObject(value)) return Number(value);
  if (types.isStringObject(value)) return String(value);
  if (types.isBooleanObject(value)) return Boolean.prototype.valueOf.call(value);
  return BigInt.prototype.valueOf.call(value);
}

/**
 * What a field declared `String`, `Number` or `Boolean` writes: the value itself when it is not
 * an object, else what `JSON.stringify` would make of it first (`toJSON(key)`, a boxed primitive's
 * primitive) when that is not an object either, else `undefined`, so the field is left out. Such a
 * field never carries an object: an entity's nested `author` cannot leave under a `String` label.
 *
 * @example
 * scalarOf('Ada', 'name');                        // 'Ada'
 * scalarOf(new Date(0), 'at');                    // '1970-01-01T00:00:00.000Z'
 * scalarOf({ passwordHash: 'x' }, 'author');       // undefined
 */
export function scalarOf(value: unknown, key: string | number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  const json: unknown = typeof toJSON === 'function' ? toJSON.call(value, String(key)) : value;
  if (typeof json !== 'object' || json === null) return json;
  return isBoxedPrimitive(json) ? unbox(json) : undefined;
}
