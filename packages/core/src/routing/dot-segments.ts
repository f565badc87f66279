/**
 * A decoded path value holding a `.` or `..` segment (`..%2f..%2fetc` decodes to `../../etc`),
 * with `\` counted as a separator too: a handler joining it onto a folder would leave the
 * folder. The router refuses such values (400) and `urlFor` never produces one, so both use this.
 */
export function hasDecodedDotSegment(value: string): boolean {
  return value.includes('.') && /(?:^|[/\\])\.{1,2}(?:[/\\]|$)/.test(value);
}
