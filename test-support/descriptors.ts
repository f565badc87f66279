import { readdirSync, readlinkSync } from 'node:fs';

/** How many descriptors this process holds open on `file` (Linux: read from /proc/self/fd). */
export function descriptorsOn(file: string): number {
  return readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false;
    }
  }).length;
}
