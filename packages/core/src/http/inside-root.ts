// `promises` is read on use: node:fs/promises loads with the first file served, not with Tern.
import { promises as fsPromises, type Stats } from 'node:fs';
import { sep } from 'node:path';

/** Real paths of roots, looked up once per root (a failed lookup is retried next time). */
const realRoots = new Map<string, Promise<string>>();
const MAX_CACHED_ROOTS = 100;

/**
 * Files already found inside their root: by root and path, the device and inode of the file the
 * real path led to. A file served again is the same file when its identity matches (a symlink
 * swapped in since can only lead to that same file), so only a file not seen before, or changed,
 * costs a `realpath`: one thread-pool round trip per request was a measurable part of serving a
 * file. Bounded: emptied when full.
 */
const verified = new Map<string, { dev: number; ino: number }>();
const MAX_VERIFIED = 10_000;

/** Where the file at `full` really is, relative to `root` (symlinks resolved). */
export type Containment = 'inside' | 'outside' | 'missing';

/**
 * Whether the file at `full`, which `stat` describes (as send found it), really lies inside
 * `root`: the real path of the file under the real path of the root.
 *
 * @example
 * await containment('/srv/files', '/srv/files/report.pdf', stat); // 'inside'
 */
export async function containment(root: string, full: string, stat: Stats): Promise<Containment> {
  const key = `${root}\0${full}`;
  const seen = verified.get(key);
  if (seen !== undefined && seen.dev === stat.dev && seen.ino === stat.ino) return 'inside';
  let base: string;
  let real: string;
  try {
    [base, real] = await Promise.all([realRoot(root), fsPromises.realpath(full)]);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') return 'missing';
    throw err;
  }
  if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) return 'outside';
  if (verified.size >= MAX_VERIFIED) verified.clear();
  verified.set(key, { dev: stat.dev, ino: stat.ino });
  return 'inside';
}

function realRoot(root: string): Promise<string> {
  let found = realRoots.get(root);
  if (!found) {
    found = fsPromises.realpath(root);
    if (realRoots.size >= MAX_CACHED_ROOTS) realRoots.clear();
    realRoots.set(root, found);
    found.catch(() => realRoots.delete(root));
  }
  return found;
}
