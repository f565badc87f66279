/**
 * The client's types kept in a file: written once from a document (a running app's URL or a saved
 * `openapi.json`), or rewritten whenever the live document changes (watch mode, beside a dev
 * server that restarts on save). The `tern-client-types` command is a thin shell over these.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { clientTypes, type ClientTypesOptions } from './client-types';

/** The document at `source`: an http(s) URL of a running app's `/openapi.json`, or a file path. */
async function readDocument(source: string): Promise<object> {
  if (/^https?:\/\//.test(source)) {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`GET ${source} answered ${response.status}`);
    return (await response.json()) as object;
  }
  return JSON.parse(await readFile(source, 'utf8')) as object;
}

/**
 * Writes the types of the document at `source` to `file`; resolves to whether the file changed.
 *
 * @example
 * await writeClientTypes('http://127.0.0.1:3000/openapi.json', 'src/api.d.ts');
 */
export async function writeClientTypes(source: string, file: string, options: ClientTypesOptions = {}): Promise<boolean> {
  const text = clientTypes(await readDocument(source), options);
  const before = await readFile(file, 'utf8').catch(() => undefined);
  if (before === text) return false;
  await writeFile(file, text);
  return true;
}

/**
 * Options of {@link watchClientTypes}.
 *
 * @example
 * const options: WatchClientTypesOptions = { intervalMs: 500, onWrite: (file) => console.log('wrote', file) };
 */
export interface WatchClientTypesOptions extends ClientTypesOptions {
  /** How often the document is read (default 1000 ms). */
  intervalMs?: number;
  /** Called after each write that changed the file. */
  onWrite?: (file: string) => void;
  /** Called when the document cannot be read (the server is restarting); the watch goes on. */
  onError?: (err: unknown) => void;
}

/**
 * Rewrites `file` whenever the document at `source` changes, until the returned stop is called.
 *
 * @example
 * const stop = watchClientTypes('http://127.0.0.1:3000/openapi.json', 'src/api.d.ts', { onWrite: () => console.log('types updated') });
 */
export function watchClientTypes(source: string, file: string, options: WatchClientTypesOptions = {}): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const tick = async () => {
    try {
      if (await writeClientTypes(source, file, options)) options.onWrite?.(file);
    } catch (err) {
      options.onError?.(err);
    }
    if (!stopped) timer = setTimeout(tick, options.intervalMs ?? 1000);
  };
  void tick();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
