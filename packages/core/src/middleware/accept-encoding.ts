/**
 * A content coding `compress()` can produce.
 *
 * @example
 * app.addMiddleware(compress({ encodings: ['gzip'] satisfies ContentCoding[] }));
 */
export type ContentCoding = 'br' | 'gzip';

/**
 * Picks the coding to send from an `Accept-Encoding` header (RFC 9110 §12.5.3), or `null` to send
 * the body as is. `offered` is in the server's order of preference, which breaks ties between
 * equal q-values. `q=0` refuses a coding; `*` stands for every coding not named; `x-gzip` is
 * gzip. No header (or an empty one) means identity only, as the `compression` package reads it.
 * Identity wins only when the client names it (or `*`) with a higher q than the best coding:
 * `gzip;q=0.5` alone still gets gzip.
 *
 * @example
 * negotiateEncoding('gzip, br;q=0.8', ['br', 'gzip']); // 'gzip'
 * negotiateEncoding('gzip, br', ['br', 'gzip']);       // 'br'
 */
export function negotiateEncoding(header: string | undefined, offered: readonly ContentCoding[]): ContentCoding | null {
  if (!header) return null;
  const weights = parseAcceptEncoding(header);
  const star = weights.get('*');
  let best: ContentCoding | null = null;
  let bestQ = 0;
  for (const coding of offered) {
    const q = weights.get(coding) ?? star ?? 0;
    if (q > bestQ) {
      best = coding;
      bestQ = q;
    }
  }
  if (best === null) return null;
  const identity = weights.get('identity') ?? star;
  return identity !== undefined && identity > bestQ ? null : best;
}

const Q_VALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** Coding → q-value. Entries with a malformed q are ignored; a coding named twice keeps its first q. */
function parseAcceptEncoding(header: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.split(';');
    let coding = name.trim().toLowerCase();
    if (coding === '') continue;
    if (coding === 'x-gzip') coding = 'gzip';
    let q = 1;
    let valid = true;
    for (const param of params) {
      const [key, value = ''] = param.split('=');
      if (key.trim().toLowerCase() !== 'q') continue;
      const text = value.trim();
      valid = Q_VALUE.test(text);
      q = Number(text);
    }
    if (valid && !weights.has(coding)) weights.set(coding, q);
  }
  return weights;
}
