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
