import type { TagObject } from 'openapi3-ts/oas31';

/**
 * The document's top-level `tags`: the declared ones first, in their order, then every other tag
 * an operation uses, in order of first use, so each tag in the document is listed once.
 *
 * @example
 * topLevelTags([{ name: 'users', description: 'People' }], [['users'], ['admin', 'users']]);
 * // [{ name: 'users', description: 'People' }, { name: 'admin' }]
 */
export function topLevelTags(declared: readonly TagObject[] | undefined, used: ReadonlyArray<readonly string[]>): TagObject[] {
  const out = (declared ?? []).map((tag) => structuredClone(tag));
  const seen = new Set(out.map((tag) => tag.name));
  for (const tags of used) {
    for (const name of tags) {
      if (seen.has(name)) continue;
      seen.add(name);
      out.push({ name });
    }
  }
  return out;
}
