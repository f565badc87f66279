import { IncomingMessage, ServerResponse } from 'node:http';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { NodeListener } from './types';

/**
 * Express (and apps built like it) replace `req`/`res` prototypes with their own, derived from
 * Node's. Objects that are not plain Node ones (light-my-request's, under `app.inject()`) would
 * lose their overridden methods and the answer would vanish; pinning those methods on the
 * instances keeps them whatever the prototype becomes.
 */
function pinSubclassMethods(target: object, nodeBase: object): void {
  let proto = Object.getPrototypeOf(target);
  while (proto && proto !== nodeBase && proto !== Object.prototype) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key === 'constructor' || Object.prototype.hasOwnProperty.call(target, key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(proto, key);
      if (descriptor && typeof descriptor.value === 'function') {
        Object.defineProperty(target, key, { value: descriptor.value, writable: true, configurable: true });
      }
    }
    proto = Object.getPrototypeOf(proto);
  }
}

/** Where a mounted listener's failures go once its answer is out (or could not be written). */
export type MountErrorReporter = (err: unknown) => void;

/**
 * Forwards a request to a Node listener mounted under `prefix`, with the prefix stripped from
 * `req.url`, and resolves once the listener has answered. A listener's failure after it answered
 * (a rejected promise, a second `res.end()`) is reported, never left unhandled: the first answer
 * stands and the process lives on.
 */
export function forwardTo(listener: NodeListener, prefix: string) {
  const prefixSegments = prefix === '/' ? 0 : prefix.split('/').length - 1;
  return async (req: TernRequest, res: TernResponse, report: MountErrorReporter): Promise<TernResponse> => {
    const raw = req.raw;
    const originalUrl = raw.url as string;
    raw.url = req.search ? `${restOf(req.path, prefixSegments)}?${req.search}` : restOf(req.path, prefixSegments);
    if (Object.getPrototypeOf(raw) !== IncomingMessage.prototype) pinSubclassMethods(raw, IncomingMessage.prototype);
    if (Object.getPrototypeOf(res.raw) !== ServerResponse.prototype) pinSubclassMethods(res.raw, ServerResponse.prototype);
    // Writing after the end emits 'error' on the response; with nobody listening Node would throw.
    res.raw.on('error', report);
    try {
      await new Promise<void>((resolve, reject) => {
        let answered = false;
        const done = () => {
          answered = true;
          resolve();
        };
        res.raw.once('finish', done);
        res.raw.once('close', done);
        // A synchronous throw inside the executor rejects the promise: it becomes a 500.
        const result: unknown = listener(raw, res.raw);
        if (isThenable(result)) result.then(undefined, (err: unknown) => (answered ? report(err) : reject(err)));
      });
    } finally {
      raw.url = originalUrl;
    }
    // The listener wrote the answer itself; the writer sees it ended and leaves it alone.
    return res;
  };
}

/**
 * The path below the prefix, cut by the prefix's segment count rather than its length: the
 * prefix may arrive percent-encoded (`/%6cegacy` for `/legacy`), which routing decodes but
 * which is longer than the declared text.
 */
function restOf(path: string, prefixSegments: number): string {
  if (prefixSegments === 0) return path;
  let cut = 0;
  for (let i = 0; i < prefixSegments; i++) {
    cut = path.indexOf('/', cut + 1);
    if (cut === -1) return '/';
  }
  return path.slice(cut) || '/';
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
