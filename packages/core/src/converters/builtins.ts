import { Convertor } from './convertor';

/** `{name}` / `{name:str}`: any text without a slash. */
export class StringConvertor extends Convertor<string> {
  regex = '[^/]+';
  override openapi = { type: 'string' };
  convert(value: string): string {
    return value;
  }
  toString(value: string): string {
    return String(value);
  }
}

/** `{name:path}`: the rest of the path, slashes included; must be the last segment. */
export class PathConvertor extends StringConvertor {
  override regex = '.*';
}

/** `{name:int}`: non-negative digits, converted to a number. */
export class IntegerConvertor extends Convertor<number> {
  regex = '[0-9]+';
  // Bounded as `convert` is: larger values are refused (422), not rounded.
  override openapi = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };
  convert(value: string): number {
    const n = Number(value);
    // Beyond 2^53 a JS number silently loses digits; refusing is safer than serving the wrong id.
    if (!Number.isSafeInteger(n)) throw new Error(`'${value}' is too large for an integer parameter`);
    return n;
  }
  toString(value: number): string {
    if (!Number.isInteger(value) || value < 0) throw new Error(`${value} is not a non-negative integer`);
    return String(value);
  }
}

/**
 * `{name:int32}`: an integer that fits a 32-bit signed column (PostgreSQL's `integer`, MySQL's
 * `INT`), 0 to 2^31-1. A larger id is a 422 at the edge, never a database error (a 500) inside.
 */
export class Int32Convertor extends IntegerConvertor {
  static readonly MAX = 2 ** 31 - 1;
  override openapi = { type: 'integer', format: 'int32', minimum: 0, maximum: Int32Convertor.MAX };
  override convert(value: string): number {
    const n = Number(value);
    if (!(n <= Int32Convertor.MAX)) throw new Error(`'${value}' is larger than ${Int32Convertor.MAX}, the largest 32-bit integer`);
    return n;
  }
  override toString(value: number): string {
    if (!Number.isInteger(value) || value < 0 || value > Int32Convertor.MAX) throw new Error(`${value} is not an integer from 0 to ${Int32Convertor.MAX}`);
    return String(value);
  }
}

/** `{name:float}`: digits with an optional fraction, converted to a number. */
export class FloatConvertor extends Convertor<number> {
  regex = '[0-9]+(\\.[0-9]+)?';
  override openapi = { type: 'number', minimum: 0 };
  convert(value: string): number {
    const n = Number(value);
    if (!Number.isFinite(n)) throw new Error(`'${value}' is not a finite number`);
    return n;
  }
  toString(value: number): string {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${value} is not a non-negative finite number`);
    // Number#toString uses exponent notation for very large or small values (1e+21, 5e-324),
    // which the pattern refuses: spell those digits out exactly instead.
    const text = String(value);
    return text.includes('e') ? expandExponent(text) : text;
  }
}

/** `'1.5e+21'` → `'1500000000000000000000'`, `'5e-7'` → `'0.0000005'`, without losing digits. */
function expandExponent(text: string): string {
  const [mantissa, exponentText] = text.split('e');
  const exponent = Number(exponentText);
  const [whole, fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`.replace(/\.?0+$/, '');
  if (point >= digits.length) return digits + '0'.repeat(point - digits.length);
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** `{name:uuid}`: a UUID, dashes optional, yielded as the canonical lowercase dashed string. */
export class UUIDConvertor extends Convertor<string> {
  regex = '[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}';
  override openapi = { type: 'string', format: 'uuid' };
  convert(value: string): string {
    const hex = value.replace(/-/g, '').toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  toString(value: string): string {
    return this.convert(String(value));
  }
}

/** `{name:slug}`: lowercase letters and digits in dash-separated words. */
export class SlugConvertor extends StringConvertor {
  override regex = '[a-z0-9]+(?:-[a-z0-9]+)*';
  override openapi = { type: 'string', pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$' };
}
