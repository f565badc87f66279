import { TernError } from '../errors';
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
  readonly securitySchemes = new Map<string, SecurityScheme>();

  constructor(options: OpenAPIOptions = {}) {
    this.title = options.title ?? 'Tern API';
    this.version = options.version ?? '0.1.0';
    this.description = options.description;
    this.openapiPath = options.openapiPath ?? '/openapi.json';
    this.docsPath = options.docsPath ?? '/docs';
    this.servers = options.servers;
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
