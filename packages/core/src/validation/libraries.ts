/**
 * class-validator and class-transformer, loaded the first time Tern needs them: when it compiles
 * or describes a model class. Loading class-validator costs ~70 ms of startup (it pulls in
 * `validator` and `libphonenumber-js`, ~300 modules), which an app without request models or
 * model schemas should not pay. An app that declares a DTO has imported class-validator itself
 * for its decorators, so for it nothing changes: the modules are already in Node's cache.
 *
 * Every caller asks here at compile time and keeps what it got, so no request pays for the
 * lookup.
 */
import type * as ClassValidator from 'class-validator';
import type * as ClassTransformer from 'class-transformer';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';

let validatorModule: typeof ClassValidator | undefined;
let transformerModule: typeof ClassTransformer | undefined;
let transformerStorage: TransformerStorage | undefined;

/** The class-validator package (its metadata store is global, shared with the app's copy). */
export function classValidator(): typeof ClassValidator {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (validatorModule ??= require('class-validator') as typeof ClassValidator);
}

/** The class-transformer package. */
export function classTransformer(): typeof ClassTransformer {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (transformerModule ??= require('class-transformer') as typeof ClassTransformer);
}

/**
 * class-transformer's `@Type()` / `@Expose()` metadata. It lives in a module-level singleton the
 * package root does not export; this is the CommonJS module its decorators write to (the
 * package's `main`, no `exports` map, so the path is stable). Requiring it alone does not load
 * the rest of class-transformer.
 */
export function classTransformerStorage(): TransformerStorage {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (transformerStorage ??= (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage }).defaultMetadataStorage);
}
