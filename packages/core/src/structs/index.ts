/** A value that can go into a query string; arrays repeat the key. */
export type QueryValue = string | number | boolean | null | undefined | Array<string | number | boolean>;

/**
 * An immutable URL path with a query string.
 *
 * @example
 * String(new URLPath('/search').addQueryParams({ q: 'tern', page: 2 })); // '/search?q=tern&page=2'
 */
export class URLPath {
  constructor(readonly path: string) {}

  /** A new URLPath with the params appended; `null`/`undefined` values are left out. */
  addQueryParams(params: Record<string, QueryValue>): URLPath {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) query.append(key, String(item));
    }
    const text = query.toString();
    if (!text) return this;
    return new URLPath(`${this.path}${this.path.includes('?') ? '&' : '?'}${text}`);
  }

  toString(): string {
    return this.path;
  }

  toJSON(): string {
    return this.path;
  }
}
