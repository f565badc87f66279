/**
 * `@tern/postgres`: PostgreSQL for Tern apps. PGlite in the process by default, node-postgres
 * when `DATABASE_URL` is set, the same result types from both (docs/database.md).
 */
export { attachDatabase, type AttachDatabaseOptions } from './attach';
export { databaseOptionsFromEnv, openDatabase, type Database, type DatabaseOptions, type Queryable } from './database';
export { requestError, UniqueViolation, uniqueViolation, unstorableText, type UniqueViolationAnswer } from './errors';
export { migrate, migrationsFromFolder, splitStatements, type Migration } from './migrations';
export { parseInt8 } from './result-types';
