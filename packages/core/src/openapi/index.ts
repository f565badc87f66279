export { HTTPBearer, APIKey, OAuth2 } from './models';
export type { SecurityScheme, OAuth2Flow, OAuth2Flows } from './models';
export { OpenAPIConfig } from './config';
export type { OpenAPIOptions } from './config';
export { buildOpenAPIDocument, OPENAPI_VERSION } from './document';
export { validateSecurityRequirements } from './security';
export { SecurityRequirementError, OpenAPIDocumentError } from './errors';
