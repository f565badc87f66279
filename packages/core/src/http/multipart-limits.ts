import { TernRangeError } from '../errors';
import { requestError } from '../errors/request-error';

/**
 * Limits of one multipart body. Every limit passed is a 413 whose detail names it; the whole body
 * is also bounded by `bodyLimit`.
 *
 * @example
 * await req.multipart({ limits: { fileSize: 5 * 1024 * 1024, files: 1 } });
 */
export interface MultipartLimits {
  /** Largest file, in bytes (default: `bodyLimit`). */
  fileSize?: number;
  /** Most files (default 10). */
  files?: number;
  /** Most text fields (default 100). */
  fields?: number;
  /** Most parts, files and fields together (default 110). */
  parts?: number;
  /** Largest text field value, in bytes (default 64 KiB). */
  fieldSize?: number;
}

/** Options of `req.multipart()` and `req.parts()`. */
export interface MultipartOptions {
  limits?: MultipartLimits;
}

export type ResolvedLimits = Required<MultipartLimits>;

const DEFAULTS = { files: 10, fields: 100, parts: 110, fieldSize: 64 * 1024 };
const NAMES: ReadonlyArray<keyof MultipartLimits> = ['fileSize', 'files', 'fields', 'parts', 'fieldSize'];

/** Fills in the defaults; a limit that is not a positive integer is a `TernRangeError`. */
export function resolveLimits(options: MultipartOptions | undefined, bodyLimit: number): ResolvedLimits {
  const given = options?.limits ?? {};
  for (const name of NAMES) {
    const value = given[name];
    if (value !== undefined && (!Number.isInteger(value) || value <= 0)) {
      throw new TernRangeError('TERN_INVALID_LIMIT', `multipart limits.${name} must be a positive integer, got ${String(value)}.`);
    }
  }
  return {
    fileSize: Math.min(given.fileSize ?? bodyLimit, bodyLimit),
    files: given.files ?? DEFAULTS.files,
    fields: given.fields ?? DEFAULTS.fields,
    parts: given.parts ?? DEFAULTS.parts,
    fieldSize: given.fieldSize ?? DEFAULTS.fieldSize,
  };
}

/** The 413 for one passed limit, naming it and its value (`headerPairs`: a fixed bound, see multipart-heads.ts). */
export function multipartLimit(name: keyof MultipartLimits | 'headerPairs', detail: string) {
  return requestError('TERN_MULTIPART_LIMIT', `${detail} (multipart limit '${name}').`);
}
