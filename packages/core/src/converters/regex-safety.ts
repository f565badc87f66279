/**
 * Refusing converter patterns that can backtrack catastrophically. A converter's regex runs on
 * every request against a value the client chose; `([a-z0-9]+-?)+` or `(?:\w|\d)+` against 28
 * characters ending in `!` holds the event loop for seconds, so such a pattern is a denial of
 * service waiting for one request. Fastify refuses them too (with safe-regex2, which measures
 * only star height and so passes overlapping alternations like `(?:\w|\d)+`).
 */
import type { isSafePattern as isSafePatternType } from 'redos-detector';
import { TernError } from '../errors';

/**
 * How hard redos-detector may look. Within `MAX_STEPS` it proves every pattern of the converter
 * docs and the built-ins safe (the UUID pattern, the longest, takes ~300 ms), and finds the
 * ambiguity of every catastrophic one tried; a pattern it cannot settle within them is refused,
 * not waved through. The timeout is only a backstop for a machine far slower than expected.
 */
const MAX_STEPS = 1000;
const TIMEOUT_MS = 10_000;

/** Why a pattern was refused, for the message; undefined when it is safe. */
type Verdict = string | undefined;

const verdicts = new Map<string, Verdict>();

/**
 * redos-detector's verdict on the pattern as routing runs it, anchored (`^(?:…)$`): unanchored,
 * a pattern may match a prefix and never backtrack, which is not how a path value is checked.
 * It explores the ways two paths through the pattern can consume the same text, so it finds
 * overlapping alternatives (`(?:\w|\d)+`, `(a|a)*`) as well as nested quantifiers (`(a+)+`), and
 * accepts linear patterns safe-regex2 refused (`[0-9]+(\.[0-9]+)?`). One verdict per pattern
 * text, since many routes share a converter.
 */
function verdictOn(source: string): Verdict {
  if (verdicts.has(source)) return verdicts.get(source);
  let verdict: Verdict;
  try {
    const result = loadDetector()(`^(?:${source})$`, { maxSteps: MAX_STEPS, timeout: TIMEOUT_MS });
    if (!result.safe) {
      verdict =
        result.error === 'hitMaxScore' || result.error === null
          ? 'two ways through it can match the same text, so a value that almost matches is retried exponentially often'
          : 'it could not be proven free of exponential backtracking';
    }
  } catch (err) {
    verdict = `it could not be analysed (${(err as Error).message})`;
  }
  verdicts.set(source, verdict);
  return verdict;
}

/** How far to trust a converter's pattern. */
export interface RegexTrust {
  /** Patterns checked by hand, accepted without analysis. */
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
  if (trust.allowUnsafeRegex || trust.trusted.has(regex)) return;
  const verdict = verdictOn(regex);
  if (verdict === undefined) return;
  throw new TernError(
    'TERN_UNSAFE_CONVERTER_REGEX',
    `${subject} has regex '${regex}', which can backtrack catastrophically: ${verdict}, and one crafted path value ` +
      "could hold the event loop for seconds. Rewrite it so that only one way matches any text (e.g. '[a-z0-9-]+' " +
      "instead of '([a-z0-9]+-?)+' or '(?:\\w|\\d)+'), or, if you have checked it, register it with { allowUnsafeRegex: true }.",
  );
}

let detector: typeof isSafePatternType | undefined;

/** redos-detector is loaded by the first custom converter checked, not with Tern. */
function loadDetector(): typeof isSafePatternType {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (detector ??= (require('redos-detector') as { isSafePattern: typeof isSafePatternType }).isSafePattern);
}
