export { HTTPBearer, APIKey, OAuth2 } from './models';
export type { SecurityScheme, OAuth2Flow, OAuth2Flows } from './models';
export { OpenAPIConfig } from './config';
export type { OpenAPIOptions } from './config';
export { buildOpenAPIDocument, OPENAPI_VERSION } from './document';
export type { DocumentOptions } from './document';
export { ApiProperty } from './api-property';
export type { ApiPropertyOptions } from './api-property';
export { SecurityRequirementError, OpenAPIDocumentError } from './errors';
