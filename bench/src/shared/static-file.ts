/**
 * Scenario 8's file: 1 MiB of deterministic, incompressible-looking bytes, written once to a
 * folder under the OS temp dir that every server child serves from.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const STATIC_NAME = '1mib.bin';
export const STATIC_URL = `/static/${STATIC_NAME}`;
export const STATIC_SIZE = 1024 * 1024;

/** The file's bytes: a SHA-256 chain, so it compresses no better than real binary data. */
export function staticBytes(): Buffer {
  const out = Buffer.alloc(STATIC_SIZE);
  let block = createHash('sha256').update('tern bench').digest();
  for (let offset = 0; offset < STATIC_SIZE; offset += block.length) {
    block.copy(out, offset);
    block = createHash('sha256').update(block).digest();
  }
  return out;
}

/** The folder holding the file, written if missing or of the wrong size (children may race: write, then rename). */
export function staticRoot(): string {
  const dir = path.join(os.tmpdir(), 'tern-bench-static');
  const file = path.join(dir, STATIC_NAME);
  try {
    if (fs.statSync(file).size === STATIC_SIZE) return dir;
  } catch {
    /* not written yet */
  }
  fs.mkdirSync(dir, { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, staticBytes());
  fs.renameSync(temp, file);
  return dir;
}
