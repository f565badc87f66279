import { TernError } from '../errors';
import { cspPolicy, cspSources } from './docs-options';
import type { SecurityScheme } from './models';

/** Options for the served OpenAPI document and docs pages (`new TernApp({ openapi })`). */
export interface OpenAPIOptions {
  /** `info.title` (default 'Tern API'). */
  title?: string;
  /** `info.version` (default '0.1.0'). */
  version?: string;
  description?: string;
  /** Where the JSON document is served (default '/openapi.json'); `false` serves none. */
  openapiPath?: string | false;
  /** Where Swagger UI is served (default '/docs'); `false` turns it off. */
  docsPath?: string | false;
  /** `servers` of the document. */
  servers?: Array<{ url: string; description?: string }>;
  /**
   * Who may show the docs pages in a frame: the sources of CSP's `frame-ancestors` (default
   * `["'none'"]`, which also sends `X-Frame-Options: DENY`; `["'self'"]` sends `SAMEORIGIN`).
   *
   * @example
   * new TernApp({ openapi: { docsFrameAncestors: ["'self'", 'https://portal.example.com'] } });
   */
  docsFrameAncestors?: string[];
  /**
   * More origins the docs page may call, added to its `connect-src` (and `media-src`): servers
   * of "Try it out" that the document does not name with an absolute URL. The app's own origin,
   * absolute `servers` URLs and OAuth2 token URLs are allowed already.
   *
   * @example
   * new TernApp({ openapi: { docsConnectSrc: ['https://*.api.example.com'] } });
   */
  docsConnectSrc?: string[];
  /**
   * The whole `Content-Security-Policy` of the docs pages (the Swagger UI page and the OAuth2
   * redirect page) instead of Tern's, or `false` to send none (when a proxy sets it).
   * `X-Frame-Options` still follows `docsFrameAncestors`.
   *
   * @example
   * new TernApp({ openapi: { docsContentSecurityPolicy: "default-src 'self'; img-src 'self' data: https:" } });
   */
  docsContentSecurityPolicy?: string | false;
}

/**
 * The app's OpenAPI settings and its registered security schemes.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
 */
export class OpenAPIConfig {
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  readonly openapiPath: string | false;
  readonly docsPath: string | false;
  readonly servers?: Array<{ url: string; description?: string }>;
  readonly docsFrameAncestors: readonly string[];
  readonly docsConnectSrc: readonly string[];
  readonly docsContentSecurityPolicy?: string | false;
  readonly securitySchemes = new Map<string, SecurityScheme>();

  constructor(options: OpenAPIOptions = {}) {
    this.title = options.title ?? 'Tern API';
    this.version = options.version ?? '0.1.0';
    this.description = options.description;
    this.openapiPath = options.openapiPath ?? '/openapi.json';
    this.docsPath = options.docsPath ?? '/docs';
    this.servers = options.servers;
    this.docsFrameAncestors = cspSources('docsFrameAncestors', options.docsFrameAncestors ?? ["'none'"]);
    this.docsConnectSrc = cspSources('docsConnectSrc', options.docsConnectSrc ?? [], { allowEmpty: true });
    this.docsContentSecurityPolicy = cspPolicy(options.docsContentSecurityPolicy);
  }

  /** Registers a scheme under the name routes use in their `security` requirements. */
  addSecurityScheme(name: string, scheme: SecurityScheme): this {
    if (!/^[A-Za-z0-9._-]+$/.test(name)) {
      throw new TernError('TERN_INVALID_SECURITY_SCHEME', `Security scheme name '${name}' may only use letters, digits, '.', '_' and '-'.`);
    }
    if (!scheme || typeof scheme.toOpenAPI !== 'function') {
      throw new TernError('TERN_INVALID_SECURITY_SCHEME', `Security scheme '${name}' must be an HTTPBearer, APIKey or OAuth2.`);
    }
    this.securitySchemes.set(name, scheme);
    return this;
  }
}
