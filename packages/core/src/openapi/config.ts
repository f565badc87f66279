import type { ContactObject, ExternalDocumentationObject, LicenseObject, ServerObject, TagObject } from 'openapi3-ts/oas31';
import { TernError, TernTypeError } from '../errors';
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
  /** `servers` of the document (with `variables` if the URL has `{placeholders}`). */
  servers?: ServerObject[];
  /** `info.summary`: one line about the API. */
  summary?: string;
  /** `info.termsOfService`: a URL. */
  termsOfService?: string;
  /** `info.contact`: `{ name, url, email }`. */
  contact?: ContactObject;
  /** `info.license`: `{ name, identifier }` (an SPDX id) or `{ name, url }`. */
  license?: LicenseObject;
  /**
   * Top-level `tags`, with descriptions and `externalDocs`, in the order to list them. Tags that
   * operations use but that are not declared here are listed after these, in order of first use.
   */
  tags?: TagObject[];
  /** Top-level `externalDocs`: `{ url, description }`. */
  externalDocs?: ExternalDocumentationObject;
  /**
   * The error answers Tern itself gives each operation (400, 401, 403, 413, 414, 415, 422; see
   * docs/openapi.md), documented automatically. `true` (default): as RFC 9457 problems
   * (`application/problem+json`); `false`: not at all, only the responses routes declare;
   * `{ schema, mediaType? }`: as the app's own error body, when an exception handler writes its
   * own format instead of problems. A model class or `{ field: Type }` shape, and its media type
   * (default `application/json`): it then documents every automatic error response and every
   * route's `problems`, in place of `application/problem+json`.
   *
   * @example
   * // RealWorld's {"errors":{"email":["…"]}}, written by one exception handler
   * new TernApp({ openapi: { problemResponses: { schema: ErrorModel, mediaType: 'application/json' } } });
   */
  problemResponses?: boolean | ProblemResponsesOptions;
  /**
   * Document response models closed (`additionalProperties: false`): what Tern's response filter
   * writes, since it drops every property a model does not declare. Clients and tools (schemathesis,
   * `checkContract`) then see a property leaking from a route with `responseFiltering: false` as
   * the break it is. Each model then has a request reading of its own (`User-Input`), which stays
   * open: a request may send more, and Tern strips it. Default `false`.
   *
   * @example
   * new TernApp({ openapi: { closedResponses: true } });
   */
  closedResponses?: boolean;
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
  readonly servers?: ServerObject[];
  readonly summary?: string;
  readonly termsOfService?: string;
  readonly contact?: ContactObject;
  readonly license?: LicenseObject;
  readonly tags?: TagObject[];
  readonly externalDocs?: ExternalDocumentationObject;
  /** Whether Tern's automatic error answers are documented. */
  readonly problemResponses: boolean;
  /** The app's own error body documenting them (`problemResponses: { schema }`); problem+json when absent. */
  readonly problemBody?: Readonly<Required<ProblemResponsesOptions>>;
  /** Response models documented with `additionalProperties: false`. */
  readonly closedResponses: boolean;
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
    this.summary = options.summary;
    this.termsOfService = options.termsOfService;
    this.contact = options.contact;
    this.license = options.license;
    this.tags = options.tags;
    this.externalDocs = options.externalDocs;
    this.problemResponses = options.problemResponses !== false;
    this.problemBody = problemBodyOf(options.problemResponses);
    this.closedResponses = options.closedResponses === true;
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

/**
 * `problemResponses: { schema, mediaType? }`: the body an app's exception handler writes for
 * every error, documenting Tern's automatic error answers in place of problem+json.
 *
 * @example
 * const problemResponses: ProblemResponsesOptions = { schema: ErrorModel, mediaType: 'application/json' };
 */
export interface ProblemResponsesOptions {
  /** A model class, or a `{ field: Type }` shape, as in a route's `responses`. */
  schema: Function | Record<string, unknown>;
  /** Default `application/json`. */
  mediaType?: string;
}

function problemBodyOf(option: boolean | ProblemResponsesOptions | undefined): Readonly<Required<ProblemResponsesOptions>> | undefined {
  if (option === undefined || option === true || option === false) return undefined;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'openapi.problemResponses must be true, false or { schema, mediaType? }.');
  }
  const schema = option.schema;
  if (typeof schema !== 'function' && (typeof schema !== 'object' || schema === null || Array.isArray(schema))) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'openapi.problemResponses.schema must be a model class or a { field: Type } shape.');
  }
  const mediaType = option.mediaType ?? 'application/json';
  if (typeof mediaType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(mediaType)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `openapi.problemResponses.mediaType must be a media type such as 'application/json', got ${JSON.stringify(mediaType)}.`);
  }
  return Object.freeze({ schema, mediaType });
}
