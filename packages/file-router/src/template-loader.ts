import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { posix, resolve, sep } from 'node:path';
import { TernError } from '@tern/core';

/**
 * Refuses a template name that could leave the template directory: `..` segments, absolute
 * paths, drive letters, backslashes, NUL. Names are `/`-separated and relative to `templateDir`.
 */
export function assertTemplateName(name: unknown): asserts name is string {
  const why = unsafeReason(name);
  if (why) {
    throw new TernError('TERN_TEMPLATE_NAME_INVALID', `Template name ${JSON.stringify(name)} is refused: ${why}.`);
  }
}

function unsafeReason(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '') return 'a template name is a non-empty string';
  if (name.includes('\0')) return 'it contains a NUL character';
  if (name.includes('\\')) return "use '/' between folders, not backslashes";
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'names are relative to templateDir, not absolute paths';
  if (name.split('/').includes('..')) return "'..' segments may not leave templateDir";
  return undefined;
}

/**
 * A synchronous nunjucks loader confined to one directory. nunjucks' own FileSystemLoader only
 * checks that the resolved path starts with the directory's path as a string, which lets
 * `../templates-old/x` out of `templates`; this one checks whole path segments and real paths
 * (symlinks), and resolves `./` and `../` includes against the including template's name.
 */
export class ConfinedLoader {
  private readonly realDir: string;

  constructor(
    readonly templateDir: string,
    private readonly noCache: boolean,
  ) {
    this.realDir = realpathSync(templateDir);
  }

  getSource(name: string): { src: string; path: string; noCache: boolean } | null {
    assertTemplateName(name);
    const full = resolve(this.realDir, name);
    if (!existsSync(full)) {
      throw new TernError('TERN_TEMPLATE_NOT_FOUND', `Template '${name}' does not exist in the template directory.`);
    }
    const real = realpathSync(full);
    if (!real.startsWith(this.realDir + sep)) {
      throw new TernError('TERN_TEMPLATE_NAME_INVALID', `Template '${name}' is refused: it leads outside the template directory.`);
    }
    if (!statSync(real).isFile()) {
      throw new TernError('TERN_TEMPLATE_NOT_FOUND', `Template '${name}' is not a file.`);
    }
    // The name, not the file path, is what nunjucks shows in errors and hands back as the parent
    // of relative includes.
    return { src: readFileSync(real, 'utf8'), path: name, noCache: this.noCache };
  }

  /** Whether `name` is a file inside the directory (for names known at startup). */
  has(name: string): boolean {
    try {
      this.getSource(name);
      return true;
    } catch {
      return false;
    }
  }

  /** nunjucks asks this for names in `{% include %}`, `{% extends %}` and `{% import %}`. */
  isRelative(name: string): boolean {
    return name.startsWith('./') || name.startsWith('../');
  }

  /** `./part.html` included from `blog/post.html` is `blog/part.html`; escaping is refused later. */
  resolve(parentName: string, name: string): string {
    return posix.normalize(posix.join(posix.dirname(parentName), name));
  }
}
