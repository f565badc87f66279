import type { MakeConfig, ServerTimeouts } from './config';
import type { ControllerResolver } from './controllers/scanner';
import type { ProxyHeaders, TrustProxy } from './http/proxy';
import type { OpenAPIOptions } from './openapi/config';
import type { LogOptions, TernLogger } from './logging/logger';
import type { ErrorLogger } from './pipeline/exceptions';
import type { ModelCompiler } from './validation/model-compiler';

export interface TernAppOptions {
  config?: MakeConfig;
  /** OpenAPI document and docs pages; see OpenAPIOptions. */
  openapi?: OpenAPIOptions;
  /**
   * A pino-compatible logger (or `true` for a default pino, which must then be installed): one
   * structured line per completed request, failures with the same request id, `req.log`. Or a
   * console-shaped `{ error }` that gets failures (500s) only; `false` silences them. Default
   * `console`, failures only. See docs/observability.md.
   *
   * @example
   * import pino from 'pino';
   * new TernApp({ logger: pino(), log: { redact: ['body.password'] } });
   */
  logger?: ErrorLogger | TernLogger | true;
  /** What Tern writes to a structured `logger`: the per-request line's level (or `false`), the level, redacted paths. */
  log?: LogOptions;
  /**
   * The header a request id is read from (when sane: 1–128 letters, digits or `-_.:/+=@`) and
   * echoed on; default `X-Request-Id`. Setting it (or giving a structured `logger`) makes every
   * request carry an id; `false` never reads one from the client and echoes none.
   */
  requestIdHeader?: string | false;
  /** Timeouts for the server `listen()` starts, and `closeTimeout` for `close()`. */
  server?: ServerTimeouts;
  /**
   * Turns request models into validators and describes them for the document. Default:
   * `defaultModelCompiler` (class-validator and class-transformer, compiled to native checks).
   */
  modelCompiler?: ModelCompiler;
  /**
   * Which proxies in front of the app may say who the client is (`X-Forwarded-For`, `-Proto`,
   * `-Host`, or `Forwarded`: see `proxyHeaders`), for `req.ip`, `req.protocol` and `req.host`. Default `false`: nobody. See
   * docs/proxies.md.
   */
  trustProxy?: TrustProxy;
  /**
   * Which headers the trusted proxies speak: `'x-forwarded'` (default: `X-Forwarded-For`,
   * `-Proto`, `-Host`) or `'forwarded'` (the RFC 7239 `Forwarded` header). Tern reads that family
   * only and ignores the other, which a client could have sent through a proxy that does not
   * touch it. Pick the one your proxy sets. Has no effect without `trustProxy`. See docs/proxies.md.
   *
   * @example
   * // nginx in front sends `Forwarded: for=...;proto=...;host=...`
   * new TernApp({ trustProxy: 'loopback', proxyHeaders: 'forwarded' });
   */
  proxyHeaders?: ProxyHeaders;
  /**
   * Builds controller classes given to `registerControllers` (a dependency container's
   * `resolve`); default `new C()`. `registerControllers(list, { resolve })` overrides it.
   */
  resolve?: ControllerResolver;
}

/** Options of `registerControllers`. */
export interface RegisterControllersOptions {
  /** Builds each controller class once, at startup (default: the app's `resolve`, else `new C()`). */
  resolve?: ControllerResolver;
}

