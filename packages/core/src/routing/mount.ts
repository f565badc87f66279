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

/**
 * Forwards a request to a Node listener mounted under `prefix`, with the prefix stripped from
 * `req.url`, and resolves once the listener has answered.
 */
export function forwardTo(listener: NodeListener, prefix: string) {
  return async (req: TernRequest, res: TernResponse): Promise<TernResponse> => {
    const raw = req.raw;
    const originalUrl = raw.url as string;
    const rest = req.path.slice(prefix === '/' ? 0 : prefix.length) || '/';
    raw.url = req.search ? `${rest}?${req.search}` : rest;
    if (Object.getPrototypeOf(raw) !== IncomingMessage.prototype) pinSubclassMethods(raw, IncomingMessage.prototype);
    if (Object.getPrototypeOf(res.raw) !== ServerResponse.prototype) pinSubclassMethods(res.raw, ServerResponse.prototype);
    try {
      await new Promise<void>((resolve) => {
        res.raw.once('finish', resolve);
        res.raw.once('close', resolve);
        // A synchronous throw inside the executor rejects the promise: it becomes a 500.
        listener(raw, res.raw);
      });
    } finally {
      raw.url = originalUrl;
    }
    // The listener wrote the answer itself; the writer sees it ended and leaves it alone.
    return res;
  };
}
