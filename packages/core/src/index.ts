/**
 * The public surface of `@tern/core`, as a named list: anything not here is internal and may
 * change without notice. A folder whose own index is a public list of names (routing, controllers,
 * errors…) is re-exported whole, so each name is listed once. Subpath entries (`@tern/core/routing`,
 * `/converters`, `/openapi`, `/structs`) export subsets of the same names.
 */
export { TernApp } from './app';
export type { TernAppOptions, RouteProvider, RegisterControllersOptions, CloseHook, StartupHook } from './app';
export { MakeConfig } from './config';
export type { ServerTimeouts } from './config';

// Declaring routes
export * from './routing';
export type { WebSocketOptions } from './realtime/limits';
export * from './converters';
export * from './structs';

// Requests and responses
export { TernRequest } from './http/request';
export type { QueryParams, RequestCookies, RequestHeaders } from './http/request';
export type { ProxyHeaders, TrustProxy } from './http/proxy';
export type { FormFields } from './http/form';
export type { MultipartFile, MultipartBody } from './http/multipart';
export type { MultipartPart } from './http/multipart-parts';
export type { MultipartOptions, MultipartLimits } from './http/multipart-limits';
export { TernResponse } from './http/response';
export type { JsonSerializers } from './http/response';
export type { FileOptions } from './http/file';
export { formatEvent } from './http/sse';
export type { ServerSentEvent, SseOptions } from './http/sse';
export type { StreamSource, StreamBody } from './http/stream-body';
export { setTemplateRenderer, PAGE_HANDLER } from './http/templates';
export type { TemplateRenderer, TemplateRendererOptions } from './http/templates';

// Middleware and lifecycle
export { cors } from './middleware/cors';
export type { CorsOptions, CorsOrigin, CorsOriginFunction } from './middleware/cors';
export { compress, isCompressibleType } from './middleware/compress';
export type { CompressOptions, ContentCoding } from './middleware/compress';
export { serveStatic } from './middleware/serve-static';
export { csrf } from './middleware/csrf';
export { assetUrl } from './middleware/asset-manifest';
export type { CsrfOptions } from './middleware/csrf';
export { fromConnect } from './middleware/connect/from-connect';
export type { ConnectMiddleware, ConnectErrorMiddleware, ConnectNext } from './middleware/connect/from-connect';
export type { FlashMessage } from './http/flash';
export { memoryStore, redisStore } from './store';
export type { TernStore, RedisStoreOptions } from './store';
export { session } from './middleware/session';
export type { SessionOptions } from './middleware/session';
export type { Session } from './http/session';
export { MEMORY_STORE_MESSAGE } from './lifecycle/cluster-notice';
export type { MemoryStoreNotice } from './lifecycle/cluster-notice';
export type { ErrorPages } from './pipeline/error-pages';
export type { TrailingSlash } from './pipeline/trailing-slash';
export type { PageHeadersOptions } from './http/page-headers';
export type { FormErrorContext } from './pipeline/form-template';
export type { ServeStaticOptions } from './middleware/serve-static';
export type { ExceptionHandler, ErrorLogger } from './pipeline/exceptions';
export type { TernLogger, LogLevel, LogMethod, LogOptions } from './logging/logger';
export { REQUEST_TRACING_CHANNEL, type RequestTraceContext } from './pipeline/tracing';
export type { ResponseHook, ResponseInfo } from './pipeline/observe';

// Errors
export * from './errors';

// OpenAPI
export {
  HTTPBearer,
  APIKey,
  OAuth2,
  OpenAPIConfig,
  buildOpenAPIDocument,
  OPENAPI_VERSION,
  ApiProperty,
  Integer,
  namedShape,
  SecurityRequirementError,
  OpenAPIDocumentError,
} from './openapi';
export type { SecurityScheme, OAuth2Flow, OAuth2Flows, OpenAPIOptions, ProblemResponsesOptions, DocumentOptions, ApiPropertyOptions } from './openapi';

// Controllers, models, security
export * from './controllers';
export * from './validation';
export * from './mapped-types';
export * from './security';

// Testing
export type { InjectOptions, InjectResponse } from './testing/inject';
