/**
 * Splits a request target into its path (as sent, percent-encoded) and query string. Only
 * origin-form (`/path?query`) and absolute-form (`http://host/path`, sent to proxies) are routed;
 * anything else (and a path carrying a `#` fragment) yields an empty path, answered 400. Never `new URL()`: it resolves `//evil/x` and
 * `/\x` into another host and path.
 */
export function splitTarget(url: string): { path: string; search: string } {
  const q = url.indexOf('?');
  let path = q === -1 ? url : url.slice(0, q);
  const search = q === -1 ? '' : url.slice(q + 1);
  if (path.charCodeAt(0) !== 47 /* / */) path = absoluteFormPath(path);
  // A fragment is never sent (RFC 9112 §3.2); the router would cut `/admin#x` to `/admin`
  // while guards comparing the path saw `/admin#x`.
  else if (path.includes('#')) path = '';
  return { path, search };
}

function absoluteFormPath(target: string): string {
  const m = /^https?:\/\/[^/?#]+(\/[^?#]*)?$/i.exec(target);
  return m ? (m[1] ?? '/') : '';
}
