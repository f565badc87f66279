import type { SecuritySchemeObject } from 'openapi3-ts/oas31';
import { TernTypeError } from '../errors';

/** A security scheme that renders itself as an OpenAPI Security Scheme Object. */
export interface SecurityScheme {
  readonly type: string;
  toOpenAPI(): SecuritySchemeObject;
}

/**
 * A token in the `Authorization` header: `Authorization: Bearer <token>`, or with `scheme`, another
 * auth-scheme word in front of it (`Token <jwt>` for RealWorld, Django REST Framework and others).
 * `enforceSecurity` reads the credential after that word (any case) and challenges with it.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('bearerAuth', new HTTPBearer({ bearerFormat: 'JWT' }));
 * app.openapiConfig.addSecurityScheme('token', new HTTPBearer({ scheme: 'Token', description: 'Authorization: Token <jwt>' }));
 */
export class HTTPBearer implements SecurityScheme {
  readonly type = 'http';
  /** The auth-scheme word of the `Authorization` header: `'bearer'` unless given. */
  readonly scheme: string;
  readonly bearerFormat?: string;
  readonly description?: string;

  constructor(options: { scheme?: string; bearerFormat?: string; description?: string } = {}) {
    const scheme = options.scheme ?? 'bearer';
    // RFC 9110's auth-scheme is a token: letters, digits and a few marks, no space.
    if (typeof scheme !== 'string' || !/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(scheme)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `HTTPBearer: scheme must be one auth-scheme word such as 'Token', got ${JSON.stringify(scheme)}.`);
    }
    if (/^(basic|digest)$/i.test(scheme)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `HTTPBearer: '${scheme}' is not a token scheme (its credentials are not a single token).`);
    }
    this.scheme = /^bearer$/i.test(scheme) ? 'bearer' : scheme;
    if (options.bearerFormat !== undefined && this.scheme !== 'bearer') {
      // OpenAPI's schema allows bearerFormat only beside scheme 'bearer': the document would be invalid.
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `HTTPBearer: bearerFormat goes with the Bearer scheme only; OpenAPI refuses it beside '${scheme}' (say the format in description).`);
    }
    this.bearerFormat = options.bearerFormat;
    this.description = options.description;
  }

  toOpenAPI(): SecuritySchemeObject {
    return compact({ type: 'http' as const, scheme: this.scheme, bearerFormat: this.bearerFormat, description: this.description });
  }
}

/**
 * An API key sent in a header, a query parameter or a cookie.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('apiKey', new APIKey({ name: 'X-API-Key', in: 'header' }));
 */
export class APIKey implements SecurityScheme {
  readonly type = 'apiKey';
  readonly name: string;
  readonly in: 'header' | 'query' | 'cookie';
  readonly description?: string;

  constructor(options: { name: string; in: 'header' | 'query' | 'cookie'; description?: string }) {
    if (!options?.name) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'APIKey needs the name of its header, query parameter or cookie.');
    if (!['header', 'query', 'cookie'].includes(options.in)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `APIKey 'in' must be 'header', 'query' or 'cookie', got '${options.in}'.`);
    }
    this.name = options.name;
    this.in = options.in;
    this.description = options.description;
  }

  toOpenAPI(): SecuritySchemeObject {
    return compact({ type: 'apiKey' as const, name: this.name, in: this.in, description: this.description });
  }
}

export interface OAuth2Flow {
  authorizationUrl?: string;
  tokenUrl?: string;
  refreshUrl?: string;
  scopes: Record<string, string>;
}

export interface OAuth2Flows {
  authorizationCode?: OAuth2Flow & { authorizationUrl: string; tokenUrl: string };
  clientCredentials?: OAuth2Flow & { tokenUrl: string };
  password?: OAuth2Flow & { tokenUrl: string };
  implicit?: OAuth2Flow & { authorizationUrl: string };
}

/**
 * OAuth 2.0 with one or more flows; routes list the scopes they need.
 *
 * @example
 * app.openapiConfig.addSecurityScheme('oauth2', new OAuth2({
 *   flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: { read: 'Read access' } } },
 * }));
 */
export class OAuth2 implements SecurityScheme {
  readonly type = 'oauth2';
  readonly flows: OAuth2Flows;
  readonly description?: string;

  constructor(options: { flows: OAuth2Flows; description?: string }) {
    const flows = options?.flows ?? {};
    const names = Object.keys(flows);
    if (names.length === 0) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'OAuth2 needs at least one flow.');
    for (const name of names) {
      const flow = (flows as Record<string, OAuth2Flow>)[name];
      const needs = FLOW_URLS[name];
      if (!needs) throw new TernTypeError('TERN_INVALID_ARGUMENT', `OAuth2: unknown flow '${name}'.`);
      for (const field of needs) {
        if (!(flow as unknown as Record<string, unknown>)[field]) throw new TernTypeError('TERN_INVALID_ARGUMENT', `OAuth2 flow '${name}' needs ${field}.`);
      }
      if (!flow.scopes || typeof flow.scopes !== 'object') throw new TernTypeError('TERN_INVALID_ARGUMENT', `OAuth2 flow '${name}' needs a scopes map.`);
    }
    this.flows = flows;
    this.description = options.description;
  }

  /** Every scope any flow defines. */
  scopes(): Set<string> {
    const all = new Set<string>();
    for (const flow of Object.values(this.flows) as OAuth2Flow[]) for (const scope of Object.keys(flow.scopes)) all.add(scope);
    return all;
  }

  toOpenAPI(): SecuritySchemeObject {
    const flows: Record<string, unknown> = {};
    for (const [name, flow] of Object.entries(this.flows) as Array<[string, OAuth2Flow]>) {
      flows[name] = compact({ authorizationUrl: flow.authorizationUrl, tokenUrl: flow.tokenUrl, refreshUrl: flow.refreshUrl, scopes: { ...flow.scopes } });
    }
    return compact({ type: 'oauth2', flows, description: this.description }) as SecuritySchemeObject;
  }
}

const FLOW_URLS: Record<string, string[]> = {
  authorizationCode: ['authorizationUrl', 'tokenUrl'],
  clientCredentials: ['tokenUrl'],
  password: ['tokenUrl'],
  implicit: ['authorizationUrl'],
};

function compact<T extends Record<string, unknown>>(object: T): T {
  for (const key of Object.keys(object)) if (object[key] === undefined) delete object[key];
  return object;
}
