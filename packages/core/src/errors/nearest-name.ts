/**
 * ` Did you mean 'x'?` when a known name is close enough to a misspelt one to be a likely typo
 * (`trailingSlashes` → `trailingSlash`), else '': for errors about unknown option keys.
 *
 * @example
 * nearestHint('summery', ['summary', 'description']); // " Did you mean 'summary'?"
 */
export function nearestHint(name: string, known: readonly string[]): string {
  let best: string | undefined;
  // A third of the name may differ (at least 2 edits): `tag` → `tags`, not `x` → `name`.
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best === undefined ? '' : ` Did you mean '${best}'?`;
}

/** Levenshtein distance; names are short (option keys), so the quadratic table is a few hundred cells. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length];
}
