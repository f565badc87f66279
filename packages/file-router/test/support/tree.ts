import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const made: string[] = [];

/**
 * Writes a temporary directory tree (`{ 'users/{id:int}/route.ts': source }`) and returns its
 * root. Every test gets fresh paths, so jest's module registry never hands back an older file.
 */
export function makeTree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'tern-file-router-'));
  made.push(root);
  writeTree(root, files);
  return root;
}

export function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Removes every tree made so far; call it from afterAll. */
export function removeTrees(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** A route file answering GET with a JSON marker, to tell files apart. */
export function getReturning(marker: string): string {
  return `export async function get() { return { from: ${JSON.stringify(marker)} }; }\n`;
}
