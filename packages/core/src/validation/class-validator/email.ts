/**
 * class-validator's `@IsEmail()` with a fast accept in front of it. validator's `isEmail` merges
 * its options, measures byte lengths with `encodeURI` and splits and tests the address several
 * times: ~2 µs per call, the largest single cost of validating a typical body. Most addresses are
 * plain ASCII, and for those a single RegExp proves the answer is `true`; everything else (and
 * every rejection) still goes to validator itself, so the result is always validator's.
 *
 * Why a match implies `isEmail(v)` with default options (validator 13.x):
 * - length ≤ 254 and at most 64 characters before the `@`: the `defaultMaxEmailLength` and
 *   `isByteLength(user, { max: 64 })` / `isByteLength(domain, { max: 254 })` checks (ASCII:
 *   one byte per character);
 * - exactly one `@`, so validator's `split('@')` yields this user and domain;
 * - the user part is dot-separated non-empty runs of `[A-Za-z0-9_+-]`, all in
 *   `emailUserUtf8Part`, and does not start with `"`;
 * - the domain passes `isFQDN` with `require_tld`, no underscores, no trailing dot: two or more
 *   labels of 1–63 letters, digits and inner hyphens, and an alphabetic TLD of 2–63 letters
 *   (so not numeric and without spaces);
 * - the default host lists are empty, `blacklisted_chars` is empty, `domain_specific_validation`
 *   and display names are off.
 * `validation-email.test.ts` checks the implication by property tests against validator.
 */
import type { SchemaObject } from 'openapi3-ts/oas31';
import { classValidator } from '../libraries';
import type { Test } from './native-checks';

const COMMON_ADDRESS = /^[A-Za-z0-9_+-]+(?:\.[A-Za-z0-9_+-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const MAX_LENGTH = 254;
const MAX_USER_LENGTH = 64;

/**
 * The schema of `@IsEmail()`. Without options: `format: email` narrowed to the addresses the fast
 * accept proves valid (`COMMON_ADDRESS` and its length limits), so everything the document
 * admits is accepted; `format: email` alone admits `0@com` and `a@org`, which validator refuses.
 * The validator stays more lenient (quoted local parts, other characters): the document chooses
 * the narrower side. With options, whose effect no keyword says, just a string.
 *
 * @example
 * emailSchema(undefined); // { type: 'string', format: 'email', maxLength: 254, pattern: '^(?=[^@]{1,64}@)[A-Za-z0-9_+-]+…' }
 */
export function emailSchema(options: unknown): SchemaObject {
  if (!hasDefaultOptions(options)) return { type: 'string' };
  return { type: 'string', format: 'email', maxLength: MAX_LENGTH, pattern: `^(?=[^@]{1,${MAX_USER_LENGTH}}@)${COMMON_ADDRESS.source.slice(1)}` };
}

function hasDefaultOptions(options: unknown): boolean {
  return options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0);
}

/** True only for addresses validator's `isEmail` accepts with its default options. */
export function isCommonEmail(value: string): boolean {
  return value.length <= MAX_LENGTH && value.indexOf('@') <= MAX_USER_LENGTH && COMMON_ADDRESS.test(value);
}

/** The predicate for `@IsEmail(options)`: the fast accept only applies without options. */
export function emailTest(options: unknown): Test {
  const { isEmail } = classValidator();
  const typed = options as Parameters<typeof isEmail>[1];
  if (!hasDefaultOptions(options)) return (v) => isEmail(v, typed);
  return (v) => typeof v === 'string' && (isCommonEmail(v) || isEmail(v, typed));
}
