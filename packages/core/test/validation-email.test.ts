/**
 * The compiled `@IsEmail()` check answers exactly as class-validator's `isEmail` (validator's):
 * its fast accept may only say `true` where validator does, and everything else is validator's.
 */
import fc from 'fast-check';
import { isEmail } from 'class-validator';
import { emailTest, isCommonEmail } from '../src/validation/class-validator/email';

const LABEL_CHARS = 'abcxyzABZ0129-_';
const USER_CHARS = 'abzAZ09_+-.!#"é@ ';

const label = (maxLength: number) => fc.string({ unit: fc.constantFrom(...LABEL_CHARS), minLength: 0, maxLength });
/** Addresses near the fast accept's edges: lengths around 63/64/254, odd characters, empty parts. */
const nearAddress = fc
  .tuple(
    fc.oneof(
      fc.string({ unit: fc.constantFrom(...USER_CHARS), maxLength: 12 }),
      fc.integer({ min: 60, max: 68 }).map((n) => 'u'.repeat(n)),
    ),
    fc.array(fc.oneof(label(8), fc.integer({ min: 61, max: 65 }).map((n) => 'd'.repeat(n))), { minLength: 0, maxLength: 4 }),
    fc.oneof(fc.constantFrom('com', 'io', 'c', '123', 'x1', 'xn--p1ai', 'co-m', 'Com', ''), label(4)),
    fc.integer({ min: 0, max: 200 }),
  )
  .map(([user, labels, tld, padding]) => {
    const domain = [...labels, tld].join('.');
    // Some addresses padded towards the 254-character limit through a long leading label set.
    const filler = padding > 150 ? `${'p'.repeat(60)}.`.repeat(Math.floor((padding - 150) / 12)) : '';
    return `${user}@${filler}${domain}`;
  });
const anyString = fc.oneof(fc.emailAddress(), nearAddress, fc.string({ maxLength: 30 }), fc.string({ unit: 'grapheme', maxLength: 20 }));

describe('@IsEmail() compiled check', () => {
  it('accepts fast only what validator accepts', () => {
    fc.assert(
      fc.property(anyString, (s) => !isCommonEmail(s) || isEmail(s)),
      { numRuns: 5000 },
    );
  });

  it('answers as class-validator for any value, with and without options', () => {
    const withoutOptions = emailTest(undefined);
    const emptyOptions = emailTest({});
    const displayName = emailTest({ allow_display_name: true });
    fc.assert(
      fc.property(fc.oneof(anyString, fc.anything()), (v) => {
        expect(withoutOptions(v)).toBe(isEmail(v));
        expect(emptyOptions(v)).toBe(isEmail(v, {}));
        expect(displayName(v)).toBe(isEmail(v, { allow_display_name: true }));
      }),
      { numRuns: 3000 },
    );
  });

  it.each([
    ['ada@example.com', true],
    ['first.last+tag@mail.example.co', true],
    [`${'u'.repeat(64)}@example.com`, true],
    [`${'u'.repeat(65)}@example.com`, false],
    [`a@${'d'.repeat(63)}.com`, true],
    [`a@${'d'.repeat(64)}.com`, false],
    ['a..b@example.com', false],
    ['a@b_c.com', false],
    ['a@-b.com', false],
    ['a@b.c', false],
    ['a@b.123', false],
    ['"quoted user"@example.com', true],
    ['josé@example.com', true],
  ])('%s → %s, as validator says', (address, expected) => {
    expect(isEmail(address)).toBe(expected);
    expect(emailTest(undefined)(address)).toBe(expected);
  });

  it('keeps options other than the defaults with validator', () => {
    expect(emailTest({ allow_display_name: true })('Ada <ada@example.com>')).toBe(true);
    expect(emailTest(undefined)('Ada <ada@example.com>')).toBe(false);
    expect(emailTest({ host_blacklist: ['example.com'] })('ada@example.com')).toBe(false);
  });
});
