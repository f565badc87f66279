/**
 * Request validation: class-validator models compiled once, at startup, into plain functions
 * (see README.md for what runs natively and what falls back to class-validator). Apps reach it
 * through the package root; there is no `@tern/core/validation` entry point.
 *
 * @example
 * import { defaultModelCompiler } from '@tern/core';
 * const validateBody = defaultModelCompiler.compile(CreateUserDto, { forbidNonWhitelisted: true });
 * const result = await validateBody(JSON.parse(text));
 * if (!result.ok) console.log(result.errors); // [{ path: 'address.city', message: 'city must be a string' }]
 */
export type { CompileOptions, ModelValidator, ValidationIssue, ValidationResult } from './types';
export type { StandardSchemaV1, StandardJSONSchemaV1 } from './standard-schema/spec';
export { defaultModelCompiler, createClassValidatorCompiler } from './class-validator/compiler';
export { Nullable } from './class-validator/nullable';
export { IsRecord } from './class-validator/is-record';
export type { RecordValues, RecordValueType } from './class-validator/record';
export type { ClassValidatorCompilerOptions } from './class-validator/compiler';
export type { ModelClass, ModelCompiler, ModelDescription, PropertyDescription, RecordDescription, RuleDescription } from './model-compiler';
