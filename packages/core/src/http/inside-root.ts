// `promises` is read on use: node:fs/promises loads with the first file served, not with Tern.
import { promises as fsPromises, type Stats } from 'node:fs';
import { sep } from 'node:path';

/** Real paths of roots, looked up once per root (a failed lookup is retried next time). */
const realRoots = new Map<string, Promise<string>>();
const MAX_CACHED_ROOTS = 100;

/** What identifies one file on disk: a replaced file, a rename or a new link changes `ctimeMs`. */
export interface FileIdentity {
  dev: number;
  ino: number;
  ctimeMs: number;
}

/**
 * Files proven to lie inside their root, by root and path: the identity of the file that was
 * found at a real path under the real root. A file served again with that same identity (the
 * descriptor just opened, or what send found) is that proven file, so only a file not seen
 * before, or changed, costs a `realpath` and a `stat`: one thread-pool round trip per request
 * was a measurable part of serving a file. Only a proof is stored: the identity recorded is the
 * one the caller holds, and it is recorded only once the real path was seen to hold that very
 * file. Bounded: emptied when full.
 */
const verified = new Map<string, FileIdentity>();
const MAX_VERIFIED = 10_000;

/**
 * Where the file at `full` really is, relative to `root` (symlinks resolved); `'changed'` when
 * the path no longer leads to the file the caller holds (it was replaced meanwhile).
 */
export type Containment = 'inside' | 'outside' | 'missing' | 'changed';

/**
 * Whether `file` (the identity of a descriptor opened at `full`, or of what send found there)
 * lies inside `root`: the real path of `full` is under the real path of the root, and the file
 * at that real path is `file` itself. The second half closes the race between opening a path and
 * resolving it again: a symlink swapped in between leads to another file, and that is
 * `'changed'`, never `'inside'`.
 *
 * @example
 * await containment('/srv/files', '/srv/files/report.pdf', await fstat(fd)); // 'inside'
 */
export async function containment(root: string, full: string, file: FileIdentity): Promise<Containment> {
  const key = `${root}\0${full}`;
  if (sameFile(verified.get(key), file)) return 'inside';
  let base: string;
  let real: string;
  let found: Stats;
  try {
    [base, real] = await Promise.all([realRoot(root), fsPromises.realpath(full)]);
    if (real !== base && !real.startsWith(base.endsWith(sep) ? base : base + sep)) return 'outside';
    // lstat: a real path names no symlink; if one was swapped in there since, it is not `file`.
    found = await fsPromises.lstat(real);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG' || code === 'ELOOP') return 'missing';
    throw err;
  }
  if (!sameFile(found, file)) return 'changed';
  if (verified.size >= MAX_VERIFIED) verified.clear();
  verified.set(key, { dev: file.dev, ino: file.ino, ctimeMs: file.ctimeMs });
  return 'inside';
}

/** The same file, unchanged in name and links since `a` was taken. */
export function sameFile(a: FileIdentity | undefined, b: FileIdentity): boolean {
  return a !== undefined && a.dev === b.dev && a.ino === b.ino && a.ctimeMs === b.ctimeMs;
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
