import { TernRangeError } from '../errors';

/**
 * One failing constraint, named by the dotted path of the value that failed.
 *
 * @example
 * { path: 'items.0.name', message: 'name should not be empty' }
 */
export interface ValidationIssue {
  /** Dotted path from the body root: `age`, `address.city`, `items.0.name`; `''` for the body itself. */
  path: string;
  /** class-validator's message for the failure (its default text or the decorator's `message`). */
  message: string;
}

/**
 * The outcome of validating one input: the model instance, or the issues found. At most
 * `maxIssues` issues are listed; `omitted` counts the others (absent when none were left out).
 *
 * @example
 * const result = await validateUser(body);
 * if (result.ok) save(result.value); // a CreateUser instance
 * else reply(422, { errors: result.errors, omitted: result.omitted });
 */
export type ValidationResult<T> = { ok: true; value: T } | { ok: false; errors: ValidationIssue[]; omitted?: number };

/**
 * How a compiled validator treats properties the model does not declare.
 *
 * @example
 * defaultModelCompiler.compile(CreateUser, { forbidNonWhitelisted: true }); // `extra` → 'property extra should not exist'
 */
export interface CompileOptions {
  /** Strip properties that carry no class-validator decorator (default `true`). */
  whitelist?: boolean;
  /** With `whitelist`, report undeclared properties instead of stripping them (default `false`). */
  forbidNonWhitelisted?: boolean;
  /**
   * Objects and arrays nested deeper than this are refused with one issue instead of being walked
   * (default 128). The JSON parser limits depth too; this keeps the validator safe on its own.
   */
  maxDepth?: number;
  /**
   * At most this many issues are listed in a failure (default 100); the rest are only counted
   * (`omitted`), so a body of 500,000 bad array elements cannot make a 50 MB error response.
   */
  maxIssues?: number;
  /**
   * An object of the body with more properties than this is refused with one issue (default
   * 1000), before the model is built: class-transformer's cost grows with the square of an
   * object's property count.
   */
  maxKeys?: number;
  /**
   * A model that falls back to class-transformer + class-validator (see `ModelValidator.native`)
   * takes bodies of at most this many values (objects, arrays and their members, default
   * 10,000), counted before anything is built: each costs the fallback ~10 µs and hundreds of
   * bytes, so a 1 MiB body of `{}` items would hold the event loop for seconds. Native models
   * are not limited by it.
   */
  maxFallbackValues?: number;
}

/**
 * What `ModelCompiler.compile` returns: call it per request with the parsed JSON. It answers synchronously
 * on the native path, and with a Promise when the model falls back to class-validator (or, for a
 * native model, when one input holds something only class-transformer handles: see README.md).
 *
 * @example
 * const validateUser = defaultModelCompiler.compile(CreateUser);
 * const result = await validateUser(body); // `await` covers both answers
 * if (!validateUser.native) log.warn(validateUser.fallbackReasons);
 */
export interface ModelValidator<T> {
  (input: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
  /** `true` when every rule of the model (and of its nested models) runs natively. */
  readonly native: boolean;
  /** Why the model falls back to class-transformer + class-validator; empty when native. */
  readonly fallbackReasons: readonly string[];
}

/** Options with their defaults applied; shared by the native and the fallback path. */
export interface ResolvedOptions {
  readonly whitelist: boolean;
  readonly forbidNonWhitelisted: boolean;
  readonly maxDepth: number;
  /** Issues past this many are counted in `omitted`, not listed (nor their messages built). */
  readonly maxIssues: number;
  readonly maxKeys: number;
  readonly maxFallbackValues: number;
}

export const DEFAULT_MAX_DEPTH = 128;
export const DEFAULT_MAX_ISSUES = 100;
export const DEFAULT_MAX_KEYS = 1000;
export const DEFAULT_MAX_FALLBACK_VALUES = 10_000;

export function resolveOptions(options: CompileOptions = {}): ResolvedOptions {
  return {
    whitelist: options.whitelist ?? true,
    forbidNonWhitelisted: options.forbidNonWhitelisted ?? false,
    maxDepth: positiveInteger('maxDepth', options.maxDepth, DEFAULT_MAX_DEPTH),
    maxIssues: positiveInteger('maxIssues', options.maxIssues, DEFAULT_MAX_ISSUES),
    maxKeys: positiveInteger('maxKeys', options.maxKeys, DEFAULT_MAX_KEYS),
    maxFallbackValues: positiveInteger('maxFallbackValues', options.maxFallbackValues, DEFAULT_MAX_FALLBACK_VALUES),
  };
}

function positiveInteger(name: string, value: number | undefined, fallback: number): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) throw new TernRangeError('TERN_INVALID_LIMIT', `${name} must be a positive integer, got ${String(value)}`);
  return resolved;
}

/** Answers shared by both paths, so their wording cannot drift apart. */
export function notAnObjectIssue(): ValidationIssue {
  return { path: '', message: 'body must be an object' };
}

export function tooDeepIssue(maxDepth: number): ValidationIssue {
  return { path: '', message: `body must not be nested deeper than ${maxDepth} levels` };
}

export function tooManyValuesIssue(maxValues: number): ValidationIssue {
  return { path: '', message: `body must not contain more than ${maxValues} values` };
}

export function tooManyKeysIssue(maxKeys: number): ValidationIssue {
  return { path: '', message: `body must not contain objects with more than ${maxKeys} properties` };
}

/** A body the transform step could not turn into the model (class-transformer threw). */
export function notConvertibleIssue(modelName: string): ValidationIssue {
  return { path: '', message: `body could not be converted to ${modelName}` };
}

/** The body shape every model needs: a non-null object that is not an array. */
export function isObjectBody(input: unknown): input is Record<string, unknown> {
  return typeof input === 'object' && input !== null && !Array.isArray(input);
}
