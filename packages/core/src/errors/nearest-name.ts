/**
 * The known name closest to a misspelt one (`trailingSlashes` → `trailingSlash`), for error
 * messages about unknown option keys; undefined when none is close enough to be a likely typo.
 *
 * @example
 * nearestName('summery', ['summary', 'description']); // 'summary'
 */
export function nearestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase());
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  // A third of the name may differ (at least 2 edits): `tag` → `tags`, not `x` → `name`.
  return bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

/** ` Did you mean 'x'?` when a known name is close to `name`, else ''. */
export function nearestHint(name: string, known: readonly string[]): string {
  const nearest = nearestName(name, known);
  return nearest === undefined ? '' : ` Did you mean '${nearest}'?`;
}

/** Levenshtein distance; names are short (option keys), so the quadratic table is a few hundred cells. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length];
}
