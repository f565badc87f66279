import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

describe('docs/errors.md', () => {
  it('lists every error code the packages use', () => {
    const docs = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
    const used = new Set<string>();
    for (const pkg of readdirSync(join(root, 'packages'))) {
      for (const file of sourceFiles(join(root, 'packages', pkg, 'src'))) {
        for (const [code] of readFileSync(file, 'utf8').matchAll(/TERN_[A-Z_]+[A-Z]/g)) used.add(code);
      }
    }
    const missing = [...used].filter((code) => !docs.includes(`\`${code}\``));
    expect(missing).toEqual([]);
  });
});
