export function median(values: number[]): number {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = v.length >> 1;
  return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

export function max(values: number[]): number {
  return values.length === 0 ? NaN : Math.max(...values);
}

export function min(values: number[]): number {
  return values.length === 0 ? NaN : Math.min(...values);
}

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** `1.23×`, or `–` when there is no ratio. */
export const fmtRatio = (r: number | undefined, digits = 2) => (r !== undefined && Number.isFinite(r) ? `${r.toFixed(digits)}×` : '–');

/** "0.980× (4 duels, 0.95×–1.01×)": a judged ratio, how many `what`s it is the median of, and their spread. */
export function judgedRatio(ratio: number, ratios: readonly number[], what: string): string {
  const n = ratios.length;
  const spread = n > 1 ? `, ${fmtRatio(Math.min(...ratios))}–${fmtRatio(Math.max(...ratios))}` : '';
  return `${fmtRatio(ratio, 3)} (${n} ${what}${n === 1 ? '' : 's'}${spread})`;
}
