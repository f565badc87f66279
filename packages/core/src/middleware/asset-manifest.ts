/**
 * Fingerprinted static files (`serveStatic(root, { fingerprint: true })`): every file under the
 * root is hashed once, at startup, and served at `<prefix>/<hash>/<path>` with a year-long
 * `immutable` cache, so browsers never ask again and a changed file gets a new URL (Django's
 * ManifestStaticFilesStorage, with the hash as a folder). `assetUrl('css/site.css')` (the
 * `{{ asset() }}` template global) gives the current URL.
 */
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { TernError } from '../errors';
import { nodeCrypto } from '../http/node-crypto';

/** A hash as it appears in a URL: 12 hex digits of the file's SHA-256. */
export const HASH_SEGMENT = /^[0-9a-f]{12}$/;

interface Entry {
  hash: string;
  /** What the file was when hashed: a development server re-hashes a file that changed. */
  mtimeMs: number;
  size: number;
}

/** One fingerprinted folder: its files' hashes by path (`css/site.css`), and the URL prefix. */
export class AssetManifest {
  private readonly entries = new Map<string, Entry>();

  constructor(
    readonly root: string,
    readonly prefix: string,
    private readonly includeDotfiles: boolean,
  ) {
    const realRoot = realpathSync(root);
    this.walk(realRoot, realRoot, '');
  }

  /** The file's current hash; undefined for a path that is not a fingerprinted file. */
  hashOf(path: string): string | undefined {
    const entry = this.entries.get(path);
    if (entry === undefined) return undefined;
    // In development files change under a running server: a changed file gets its new hash.
    if (process.env.NODE_ENV !== 'production') this.refresh(path, entry);
    return entry.hash;
  }

  /** `/assets/<hash>/css/site.css`, or undefined for a path the folder does not hold. */
  url(path: string): string | undefined {
    const clean = path.replace(/^\/+/, '');
    const hash = this.hashOf(clean);
    return hash === undefined ? undefined : `${this.prefix}/${hash}/${clean}`;
  }

  private walk(dir: string, realRoot: string, rel: string): void {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!this.includeDotfiles && entry.name.startsWith('.')) continue;
      const full = join(dir, entry.name);
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      let real: string;
      try {
        real = realpathSync(full);
      } catch {
        continue; // a dangling link
      }
      // serveStatic refuses what leads out of the root: it gets no URL either.
      if (!real.startsWith(realRoot + sep)) continue;
      const stats = statSync(real);
      if (stats.isDirectory()) this.walk(real, realRoot, path);
      else if (stats.isFile()) this.entries.set(path, { hash: hashFile(real), mtimeMs: stats.mtimeMs, size: stats.size });
    }
  }

  private refresh(path: string, entry: Entry): void {
    const full = join(this.root, ...path.split('/'));
    try {
      const stats = statSync(full);
      if (stats.mtimeMs === entry.mtimeMs && stats.size === entry.size) return;
      entry.hash = hashFile(full);
      entry.mtimeMs = stats.mtimeMs;
      entry.size = stats.size;
    } catch {
      // Gone since: the old URL stays until the next start; serving it answers 404.
    }
  }
}

function hashFile(path: string): string {
  return nodeCrypto().createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12);
}

/** Every fingerprinted folder, the latest first: `assetUrl` asks each. */
const manifests: AssetManifest[] = [];

export function registerManifest(manifest: AssetManifest): void {
  manifests.unshift(manifest);
}

/**
 * The fingerprinted URL of a static file (`serveStatic(root, { prefix, fingerprint: true })`):
 * `assetUrl('css/site.css')` → `/assets/3f2a9c0d1b7e/css/site.css`. Throws `TERN_ASSET_NOT_FOUND`
 * for a file no fingerprinted folder holds, so a typo fails the page that names it, loudly.
 * Templates call it as `{{ asset('css/site.css') }}`.
 *
 * @example
 * app.mountRouter(serveStatic(path.join(__dirname, 'public'), { prefix: '/assets', fingerprint: true }));
 * assetUrl('css/site.css'); // '/assets/3f2a9c0d1b7e/css/site.css'
 */
export function assetUrl(path: string): string {
  if (typeof path === 'string') {
    for (const manifest of manifests) {
      const url = manifest.url(path);
      if (url !== undefined) return url;
    }
  }
  const folders = manifests.map((m) => m.root).join(', ') || 'none: give serveStatic() { fingerprint: true }';
  throw new TernError('TERN_ASSET_NOT_FOUND', `asset(${JSON.stringify(path)}): no fingerprinted static folder holds this file (folders: ${folders}).`);
}
