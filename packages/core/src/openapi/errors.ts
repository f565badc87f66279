import { TernError } from '../errors';

/**
 * A route's `security` cannot be described: it names a scheme nobody registered, asks for an
 * OAuth2 scope no flow defines, or is not a list of `{ scheme: [scopes] }` entries.
 * Thrown by `app.ready()`; `code` says which.
 *
 * @example
 * // 'oauth2' is registered with scopes read and write only:
 * app.get('/admin', { security: [{ oauth2: ['admin'] }] }, handler);
 * await app.ready(); // SecurityRequirementError TERN_UNKNOWN_SECURITY_SCOPE
 */
export class SecurityRequirementError extends TernError {
  constructor(
    code: 'TERN_UNKNOWN_SECURITY_SCHEME' | 'TERN_UNKNOWN_SECURITY_SCOPE',
    message: string,
  ) {
    super(code, message);
  }
}

/**
 * The OpenAPI document cannot be built from the routes' metadata: two operations claim one
 * explicit `operationId`, or a route's `responses`, `requestModel` or `parameters` are not
 * something the document can describe. Thrown by `app.ready()`; `code` says which.
 */
export class OpenAPIDocumentError extends TernError {
  constructor(
    code: 'TERN_DUPLICATE_OPERATION_ID' | 'TERN_INVALID_OPENAPI_METADATA',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}
