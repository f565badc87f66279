/**
 * Helpers for the JSON Schema half of `constraints.ts`: how a constraint's arguments become
 * keywords. Pure data in, data out; no JSON Schema composition here (the OpenAPI builder merges).
 */
import type { SchemaObject, SchemaObjectType } from 'openapi3-ts/oas31';

/** A date travels as an ISO 8601 string in JSON; class-transformer turns it into a `Date`. */
export function dateTime(): SchemaObject {
  return { type: 'string', format: 'date-time' };
}

const ISO_DATE_TIME = '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d+)?(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)$';

/**
 * `@IsISO8601()` / `@IsDateString()`: the full date-times among what they accept. The validators
 * also take dates alone, weeks, ordinal days and times without seconds (`2026-11-09`,
 * `2026-W48`), which no JSON Schema `format` names; the document chooses the narrower side and
 * promises only `2026-11-09T10:00:00Z`-shaped values (upper-case `T`, seconds, an offset or `Z`),
 * every one of which the validator accepts. `format: date-time` alone would also admit a
 * lower-case `t` and the leap second `23:59:60`, which the validator refuses.
 */
export function isoDateTime(args: readonly unknown[] = []): SchemaObject {
  const strict = (args[0] as { strict?: unknown } | undefined)?.strict === true;
  return { type: 'string', format: 'date-time', pattern: strict ? STRICT_ISO_DATE_TIME : ISO_DATE_TIME };
}

/** A year validator.js's strict check takes: 0100 to 9999 (it reads years below 100 as 19xx). */
const YEAR = '(?:0[1-9]\\d{2}|[1-9]\\d{3})';
/** Leap years among those: divisible by 4 and not by 100, or by 400. */
const LEAP_YEAR = '(?:(?:0[1-9]|[1-9]\\d)(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)';
const CALENDAR_DATE = `(?:${YEAR}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|${LEAP_YEAR}-02-29)`;

/**
 * `@IsISO8601({ strict: true })` also refuses dates no calendar has (`2026-02-29`, `2026-04-31`)
 * and years before 0100: its pattern says so, so the document never admits what it refuses.
 */
const STRICT_ISO_DATE_TIME = `^${CALENDAR_DATE}${ISO_DATE_TIME.slice(ISO_DATE_TIME.indexOf('T'))}`;

/** A string, with a `format` when one is known. */
export function stringSchema(format?: string): SchemaObject {
  return format ? { type: 'string', format } : { type: 'string' };
}

/** `{ [key]: value }` for a finite number, `{}` otherwise (the keyword cannot say it). */
export function numberKeyword(key: string, value: unknown): SchemaObject {
  return typeof value === 'number' && Number.isFinite(value) ? { [key]: value } : {};
}

/**
 * The values of a TypeScript enum. A numeric enum also maps each number back to its name
 * (`E[0] === 'A'`); those reverse entries are dropped so `enum Level { Low, High }` lists
 * `[0, 1]`, not names. (class-validator itself also accepts the names; the schema documents
 * the values the enum is for.) String and mixed enums have no reverse entries.
 *
 * @example
 * enum Level { Low, High }
 * enumValues(Level); // [0, 1]
 */
export function enumValues(entity: Record<string, unknown>): unknown[] {
  return Object.keys(entity)
    .filter((key) => {
      const value = entity[key];
      return !(typeof value === 'string' && typeof entity[value] === 'number' && String(entity[value]) === key);
    })
    .map((key) => entity[key]);
}

/**
 * `enum` plus the `type` its values share, so numeric enums say `integer`, not `string`.
 *
 * @example
 * enumSchema([1, 2]); // { type: 'integer', enum: [1, 2] }
 */
export function enumSchema(values: readonly unknown[]): SchemaObject {
  const allowed = values.filter(isJsonScalar);
  const types = new Set<SchemaObjectType>(allowed.map(jsonType));
  if (types.has('number')) types.delete('integer'); // every integer is a number
  const type = [...types];
  if (type.length === 0) return { enum: allowed };
  return { type: type.length === 1 ? type[0] : type, enum: allowed };
}

/**
 * JSON Schema patterns are ECMA-262 sources without flags. Flags that change what matches
 * (`i`, `m`, `s`, `y`, `v`) cannot be carried, and dropping them would reject values the
 * validator accepts, so such a pattern is left out of the schema.
 */
export function patternSchema(pattern: unknown, flags: unknown): SchemaObject {
  const source = pattern instanceof RegExp ? pattern.source : typeof pattern === 'string' ? pattern : undefined;
  const allFlags = (pattern instanceof RegExp ? pattern.flags : '') + (typeof flags === 'string' ? flags : '');
  if (source === undefined || /[imsyv]/.test(allFlags)) return { type: 'string' };
  return { type: 'string', pattern: source };
}

/** An IP address of version 4 or 6, else any string. */
export function ipSchema(version: unknown): SchemaObject {
  const v = String(version ?? '');
  return v === '4' || v === '6' ? { type: 'string', format: `ipv${v}` } : { type: 'string' };
}

function jsonType(value: string | number | boolean | null): SchemaObjectType {
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value === 'string' ? 'string' : 'boolean';
}

/** Only scalars can equal a parsed JSON value under `===`, and only they serialise as-is. */
export function isJsonScalar(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
