/**
 * Compile-time cross-check of a native predicate against the constraint class-validator would
 * run. A rule is only recognised by its registered name, and anyone can register a decorator
 * named `isInt`; running both on a set of probe values catches such impostors (and any drift in
 * a future class-validator) before a single request is served. The probes exercise the real
 * constraint once per value, at startup only.
 */
import type { ValidationArguments } from 'class-validator';
import type { ConstraintMeta, ValidationMeta } from './metadata';
import type { Test } from './native-checks';

const BASE_PROBES: readonly unknown[] = [
  undefined, null, '', ' ', 'a', 'abc', 'ABC123', 'hello world', 'x'.repeat(300), 'e\u0301', '😀', '♥\uFE0F',
  'user@example.com', 'user@', 'https://example.com/a?b=1', 'example', 'ftp://x.y',
  '123e4567-e89b-12d3-a456-426614174000', '123e4567-e89b-42d3-a456-426614174000', '00000000-0000-0000-0000-000000000000',
  '2020-01-01', '2020-01-01T10:20:30Z', '2020-01-01T10:20:30.123+02:00', '2020-13-45', '1', 'true',
  0, -0, 1, -1, 2, 1.5, -2.25, 0.1 + 0.2, 1e21, 1.5e-7, 123.456, Number.MAX_SAFE_INTEGER,
  NaN, Infinity, -Infinity, true, false,
  [], [1], ['a'], [1, 2, 3], {}, { a: 1 }, new Date(0), new Date(NaN), Object('s'), Object(true), Object(1),
];

/** Probe values near the decorator's own constraint values (bounds, members, lengths). */
function derivedProbes(constraints: readonly unknown[] | undefined): unknown[] {
  const out: unknown[] = [];
  for (const c of constraints ?? []) {
    if (typeof c === 'number' && Number.isFinite(c)) {
      out.push(c - 1, c, c + 1, c - 0.5, c + 0.5);
      if (Number.isInteger(c) && c >= 0 && c <= 1000) {
        for (const n of [c - 1, c, c + 1]) if (n >= 0) out.push('x'.repeat(n), Array.from({ length: n }, () => 0));
      }
    } else if (Array.isArray(c)) {
      out.push(...c);
    } else if (typeof c === 'string') {
      out.push(c);
    } else if (c !== null && typeof c === 'object' && Object.getPrototypeOf(c) === Object.prototype) {
      out.push(...Object.values(c)); // enum members
    }
  }
  return out;
}

/** `true` when `test` gives class-validator's verdict on every probe. */
export function agreesWithClassValidator(test: Test, meta: ValidationMeta, constraint: ConstraintMeta): boolean {
  const instance = constraint.instance;
  for (const probe of [...BASE_PROBES, ...derivedProbes(meta.constraints)]) {
    const args: ValidationArguments = {
      targetName: 'Probe',
      property: meta.propertyName,
      object: {},
      value: probe,
      constraints: meta.constraints,
    };
    let expected: unknown;
    try {
      expected = instance.validate(probe, args);
    } catch {
      return false;
    }
    if (expected instanceof Promise || !!expected !== test(probe)) return false;
  }
  return true;
}
