import { existsSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A source folder and the folder tsc writes its output to (`outDir` for that part of the tree).
 *
 * @example
 * const routes: CompiledTree = { source: 'src/routes', compiled: 'dist/routes' };
 */
export interface CompiledTree {
  /** Where the `.ts` files are, e.g. `src/routes`. */
  source: string;
  /** Where tsc writes them as `.js`, `.d.ts` and maps, e.g. `dist/routes`. */
  compiled: string;
}

/** The compiled files one source file gives: `x.ts` → `x.js`, `x.d.ts`, their maps. */
const OUTPUT = /^(.*)\.(?:js|js\.map|d\.ts|d\.ts\.map)$/;

/**
 * Deletes compiled files whose source is gone, and the folders that leaves empty. tsc never
 * removes the output of a deleted source, so without this a deleted route folder keeps being
 * served from its stale `route.js`. Returns the paths removed (relative to `compiled`).
 *
 * @example
 * removeStaleOutput({ source: 'src/routes', compiled: 'dist/routes' }); // ['blog/route.js', 'blog/route.d.ts']
 */
export function removeStaleOutput(tree: CompiledTree): string[] {
  const removed: string[] = [];
  if (existsSync(tree.compiled)) walk(tree.source, tree.compiled, '', removed);
  return removed;
}

/** True when the folder was left empty (and removed). */
function walk(source: string, compiled: string, rel: string, removed: string[]): boolean {
  const entries = readdirSync(compiled, { withFileTypes: true });
  let left = entries.length;
  for (const entry of entries) {
    const path = join(compiled, entry.name);
    const relPath = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (walk(join(source, entry.name), path, relPath, removed)) left--;
      continue;
    }
    const output = OUTPUT.exec(entry.name);
    // Only what tsc writes is ours to remove: a file with no source pattern (an asset) stays.
    if (!output || !entry.isFile()) continue;
    const base = join(source, output[1]);
    if (existsSync(`${base}.ts`) || existsSync(`${base}.tsx`) || existsSync(`${base}.js`)) continue;
    unlinkSync(path);
    removed.push(relPath);
    left--;
  }
  if (left > 0 || rel === '') return false;
  rmdirSync(compiled);
  return true;
}
