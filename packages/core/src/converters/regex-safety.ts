/**
 * Refusing converter patterns that can backtrack catastrophically. A converter's regex runs on
 * every request against a value the client chose; `([a-z0-9]+-?)+` against 29 characters ending
 * in `!` holds the event loop for seconds, so such a pattern is a denial of service waiting for
 * one request. Fastify refuses them the same way (safe-regex2 unless `allowUnsafeRegex`).
 */
import type safeRegexType from 'safe-regex2';
import { TernError } from '../errors';

const verdicts = new Map<string, boolean>();

/**
 * safe-regex2's verdict: no repetition inside a repetition (star height 1) and at most 25
 * repetitions. It is a heuristic: it refuses some linear patterns (any quantified group that
 * contains a quantifier, even `(\.[0-9]+)?`) and misses some slow ones (`(a|a)*`), which is why
 * the hand-checked built-ins bypass it and why the opt-out exists. One verdict per pattern text,
 * since many routes share a converter.
 */
function looksSafe(source: string): boolean {
  let verdict = verdicts.get(source);
  if (verdict === undefined) verdicts.set(source, (verdict = loadSafeRegex()(source)));
  return verdict;
}

/** How far to trust a converter's pattern. */
export interface RegexTrust {
  /** Patterns checked by hand, accepted without asking safe-regex2. */
  trusted: ReadonlySet<string>;
  /** The user's opt-out: any valid pattern is accepted. */
  allowUnsafeRegex: boolean;
}

/**
 * Throws unless `regex` is a valid pattern that cannot backtrack catastrophically (or the opt-out
 * is set). `subject` starts the message, e.g. `Converter 'version'`.
 */
export function assertSafeConverterRegex(regex: unknown, subject: string, trust: RegexTrust): void {
  if (typeof regex !== 'string') {
    throw new TernError('TERN_INVALID_CONVERTER', `${subject} must have a string regex.`);
  }
  try {
    new RegExp(regex);
  } catch (err) {
    throw new TernError('TERN_INVALID_CONVERTER', `${subject} has an invalid regex: ${(err as Error).message}`);
  }
  if (trust.allowUnsafeRegex || trust.trusted.has(regex) || looksSafe(regex)) return;
  throw new TernError(
    'TERN_UNSAFE_CONVERTER_REGEX',
    `${subject} has regex '${regex}', which can backtrack catastrophically: one crafted path value could hold ` +
      "the event loop for seconds. Rewrite it without a repeated group that itself repeats (e.g. '[a-z0-9-]+' instead of " +
      "'([a-z0-9]+-?)+'), or, if you have checked it, register it with { allowUnsafeRegex: true }.",
  );
}

let safeRegexModule: typeof safeRegexType | undefined;

/** safe-regex2 is loaded by the first custom converter checked, not with Tern. */
function loadSafeRegex(): typeof safeRegexType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (safeRegexModule ??= require('safe-regex2') as typeof safeRegexType);
}
