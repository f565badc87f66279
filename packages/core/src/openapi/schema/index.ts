/**
 * class-validator models → OpenAPI 3.1 JSON Schema. The document builder needs only
 * `SchemaRegistry`; the rest of the folder is how it reads and translates the metadata.
 */
export { SchemaRegistry } from './registry';
export type { FieldType, ResponseShape } from './shapes';
export type { ModelView } from './class-to-schema';
