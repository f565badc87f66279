/**
 * The layout's rules, checked on every `npm test`: each folder of `packages/core/src` sits in a
 * layer and imports only from its own layer or lower ones (types included), so folders can never
 * import each other in a circle; and no runtime import cycle exists between files. A new folder
 * must be given its layer here, which is where its place in the design gets decided.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

const SRC = resolve(__dirname, '../src');

/** Lower layers know nothing of higher ones. `http/` is below `routing/`: a request knows no routes. */
const LAYERS: Record<string, number> = {
  errors: 0,
  structs: 0,
  config: 1,
  converters: 1,
  logging: 1,
  http: 2,
  validation: 2,
  routing: 3,
  openapi: 4,
  middleware: 4,
  // The contract check reads the OpenAPI document (openapi/, layer 4).
  testing: 5,
  'mapped-types': 4,
  serialization: 5,
  // The store (memory or Redis) needs only errors and logging: sessions (middleware/) and
  // sockets build on it.
  store: 2,
  pipeline: 6,
  lifecycle: 4,
  controllers: 7,
  // Sockets complete the upgrade a route's chain (pipeline/) allowed.
  realtime: 7,
  'app-options': 8,
  'app-compile': 9,
  app: 10,
  security: 11,
  index: 12,
  // The loader the build puts beside the bundle (dist/bundle/load.js): outside the bundle, above
  // everything, so nothing in it can import the loader.
  'compile-cache': 13,
};

interface SourceFile {
  path: string;
  unit: string;
  imports: Array<{ target: string; typeOnly: boolean }>;
}

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return listSources(path);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function unitOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  return parts.length === 1 ? parts[0].replace(/\.ts$/, '') : parts[0];
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [`${base}.ts`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this candidate
    }
  }
  throw new Error(`${relative(SRC, from)} imports '${specifier}', which does not exist`);
}

/** `import type {…}`, or `import {…}` whose every name is `type X`, vanishes from the output. */
function isTypeOnly(clause: string, typeKeyword: boolean): boolean {
  if (typeKeyword) return true;
  const braces = /^\{([\s\S]*)\}$/.exec(clause.trim());
  if (!braces) return false;
  const names = braces[1].split(',').map((n) => n.trim()).filter(Boolean);
  return names.length > 0 && names.every((n) => n.startsWith('type '));
}

function readSource(path: string): SourceFile {
  const text = readFileSync(path, 'utf8');
  const imports: SourceFile['imports'] = [];
  const statement = /^\s*(?:import|export)\s+(type\s+)?([^;]*?)\s*from\s*['"]([^'"]+)['"]/gm;
  for (const m of text.matchAll(statement)) {
    const target = resolveImport(path, m[3]);
    if (target) imports.push({ target, typeOnly: isTypeOnly(m[2], Boolean(m[1])) });
  }
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)/gm)) {
    const target = resolveImport(path, m[1] ?? m[2]);
    if (target) imports.push({ target, typeOnly: false });
  }
  return { path, unit: unitOf(path), imports };
}

/** Every cycle's files, found by depth-first search over runtime imports. */
function runtimeCycles(files: SourceFile[]): string[][] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (path: string) => {
    state.set(path, 'open');
    stack.push(path);
    for (const { target, typeOnly } of byPath.get(path)?.imports ?? []) {
      if (typeOnly) continue;
      if (state.get(target) === 'open') cycles.push(stack.slice(stack.indexOf(target)).map((p) => relative(SRC, p)));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(path, 'done');
  };
  for (const file of files) if (!state.has(file.path)) visit(file.path);
  return cycles;
}

const files = listSources(SRC).map(readSource);

describe('the source layout', () => {
  it('gives every folder of src a layer', () => {
    const unplaced = [...new Set(files.map((f) => f.unit))].filter((unit) => !(unit in LAYERS));
    expect(unplaced).toEqual([]);
  });

  it('imports only from the same layer or lower ones (so no folder cycle)', () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const { target } of file.imports) {
        const to = unitOf(target);
        if (to !== file.unit && LAYERS[to] >= LAYERS[file.unit]) upward.push(`${relative(SRC, file.path)} -> ${relative(SRC, target)}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps the HTTP layer free of routes', () => {
    const intoRouting = files
      .filter((f) => f.unit === 'http')
      .flatMap((f) => f.imports.filter((i) => unitOf(i.target) === 'routing').map((i) => relative(SRC, i.target)));
    expect(intoRouting).toEqual([]);
  });

  it('has no runtime import cycle between files', () => {
    expect(runtimeCycles(files)).toEqual([]);
  });

  it('fails on a cycle when there is one (the checker itself works)', () => {
    const a = join(SRC, 'x/a.ts');
    const b = join(SRC, 'x/b.ts');
    const fake: SourceFile[] = [
      { path: a, unit: 'x', imports: [{ target: b, typeOnly: false }] },
      { path: b, unit: 'x', imports: [{ target: a, typeOnly: false }] },
    ];
    expect(runtimeCycles(fake)).toEqual([['x/a.ts', 'x/b.ts']]);
    expect(runtimeCycles([{ ...fake[0] }, { ...fake[1], imports: [{ target: a, typeOnly: true }] }])).toEqual([]);
  });
});
