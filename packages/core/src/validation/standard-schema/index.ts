/**
 * Models from any schema library through Standard Schema v1: recognised wherever a model class
 * is accepted, validated by the library (`validator.ts`), described by Standard JSON Schema
 * (`json-schema.ts`). Tern imports no schema library.
 *
 * @example
 * import { isStandardSchema, compileStandardSchema } from './standard-schema';
 * if (isStandardSchema(model)) validate = compileStandardSchema(model);
 */
export { isStandardSchema, describeStandardSchema, modelName } from './recognise';
export { compileStandardSchema, dottedPath } from './validator';
export { standardJsonSchema, type SchemaSide } from './json-schema';
export type { StandardSchemaV1, StandardJSONSchemaV1 } from './spec';
export { queryInput, queryProperties } from './query';
