/**
 * One copy of each validation library. class-transformer keeps `@Type()`/`@Expose()` records in a
 * module-level store: when the app's decorators ran in one copy and Tern reads another (a
 * `file:` or linked `@tern/core` resolves its libraries from its own real path; a nested
 * `node_modules`), Tern sees no `@Type` and nested data is accepted unchecked, with no error
 * anywhere. class-validator shares its rule store through a global, but two copies still differ in
 * containers, messages and versions. `reflect-metadata` is a global polyfill whose 0.2 copies
 * share one registry, so it is not checked.
 *
 * Checked once at the end of `ready()`, from Node's module cache (what is actually loaded, not
 * what might be): no request pays for it.
 */
import * as path from 'node:path';
import { TernError } from '../errors';

type ModuleCache = Record<string, { exports?: unknown } | undefined>;

/** The libraries whose copies must be one; `storage` is the file holding per-copy decorator records. */
const LIBRARIES = [
  { name: 'class-transformer', storage: path.join('cjs', 'storage.js') },
  { name: 'class-validator', storage: undefined },
] as const;

/** Where Tern's own `require(name)` lands (the package folder), without loading it. */
function ternCopy(name: string): string | undefined {
  try {
    return path.dirname(require.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** Package folders of `name` that have at least one file in the module cache. */
function loadedCopies(name: string, files: readonly string[]): Set<string> {
  const copies = new Set<string>();
  for (const file of files) {
    const at = Math.max(file.lastIndexOf(`/node_modules/${name}/`), file.lastIndexOf(`\\node_modules\\${name}\\`));
    if (at >= 0) copies.add(file.slice(0, at + '/node_modules/'.length + name.length));
  }
  return copies;
}

/** A class-transformer copy whose store holds records: some class was decorated through it. */
function holdsRecords(copy: string, storageFile: string, cache: ModuleCache): boolean {
  const storage = (cache[path.join(copy, storageFile)]?.exports as { defaultMetadataStorage?: Record<string, unknown> } | undefined)
    ?.defaultMetadataStorage;
  if (!storage) return false;
  return Object.values(storage).some((records) => records instanceof Map && records.size > 0);
}

/**
 * The `TERN_DUPLICATE_LIBRARY` error when Tern and the app use different copies of
 * class-transformer or class-validator, else undefined.
 *
 * @example
 * const duplicate = findDuplicateLibraries();
 * if (duplicate) throw duplicate; // names both folders and the fix
 */
export function findDuplicateLibraries(
  cache: ModuleCache = require.cache as ModuleCache,
  resolveTern: (name: string) => string | undefined = ternCopy,
): TernError | undefined {
  const files = Object.keys(cache);
  for (const { name, storage } of LIBRARIES) {
    const copies = loadedCopies(name, files);
    // Nothing loaded, nothing to compare: an app without models skips the resolution (file reads).
    if (copies.size === 0) continue;
    const tern = resolveTern(name);
    const others = [...copies].filter((copy) => copy !== tern && (storage === undefined || holdsRecords(copy, storage, cache)));
    if (others.length === 0) continue;
    // class-validator's rules are shared through a global: two copies only matter once Tern uses its own.
    if (storage === undefined && (tern === undefined || !copies.has(tern))) continue;
    return new TernError(
      'TERN_DUPLICATE_LIBRARY',
      `Tern and your app use different copies of ${name}:\n` +
        `  Tern reads:       ${tern ?? '(none: Tern cannot resolve it)'}\n` +
        `  your models use:  ${others.join(', ')}\n` +
        `Decorators register in the copy your code imports, so Tern would not see them (nested @Type() data would be accepted unchecked). ` +
        `${name} is a peer dependency of @tern/core: install it once, in your app, and make sure @tern/core has no copy of its own. ` +
        'A `file:` or `npm link`ed @tern/core resolves from its real folder: install a packed tarball (npm pack) or use `npm install --install-links`, then run `npm ls ' +
        `${name}\` to check there is one copy. See docs/getting-started.md.`,
    );
  }
  return undefined;
}
