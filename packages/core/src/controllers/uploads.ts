/**
 * `@UploadedFile` / `@UploadedFiles` compiled into resolvers, and what a route with uploads
 * declares: it consumes `multipart/form-data`, with limits derived from the decorators.
 */
import { TernError } from '../errors';
import { requestError } from '../errors/request-error';
import type { MultipartFile } from '../http/multipart';
import type { MultipartOptions } from '../http/multipart-limits';
import type { TernRequest } from '../http/request';
import type { ParamMeta } from './metadata';

/** What the document and the route options need to know of one upload parameter. */
export interface UploadParam {
  /** The form field; undefined for `@UploadedFiles()` (every file). */
  name?: string;
  multiple: boolean;
  required: boolean;
  maxSize?: number;
  mimeTypes?: string[];
}

/** A missing or doubled file: collected with the other parameter failures into one 422. */
export class UploadFailure {
  constructor(
    readonly detail: string,
    readonly path: string,
    readonly message: string,
  ) {}
}

export function uploadParam(meta: ParamMeta): UploadParam {
  const upload = meta.upload ?? {};
  return {
    name: meta.name,
    multiple: meta.source === 'files',
    required: meta.source === 'file' && upload.required !== false,
    maxSize: upload.maxSize,
    mimeTypes: upload.mimeTypes,
  };
}

/**
 * Types a family range does not admit: they must be listed by name. SVG is a document that can
 * run scripts; an app that takes `image/*` to mean pictures and serves them back from its own
 * origin would be serving stored XSS.
 */
const ONLY_BY_NAME: ReadonlySet<string> = new Set(['image/svg+xml']);

function acceptsType(accepted: readonly string[], mimeType: string): boolean {
  const type = mimeType.toLowerCase();
  return accepted.some((range) => (range.endsWith('/*') ? type.startsWith(range.slice(0, -1)) && !ONLY_BY_NAME.has(type) : type === range));
}

/** Throws the 413 or 415 for a file the parameter does not accept. */
function checkFile(param: UploadParam, file: MultipartFile): void {
  if (param.maxSize !== undefined && file.size > param.maxSize) {
    throw requestError('TERN_MULTIPART_LIMIT', `File '${file.filename}' in field '${file.fieldName}' is larger than ${param.maxSize} bytes (maxSize).`);
  }
  if (param.mimeTypes && !acceptsType(param.mimeTypes, file.mimeType)) {
    throw requestError(
      'TERN_FILE_TYPE_NOT_ALLOWED',
      `File '${file.filename}' in field '${file.fieldName}' has type '${file.mimeType}'; accepted: ${param.mimeTypes.join(', ')}.`,
    );
  }
}

/**
 * The resolver: reads the multipart body (once per request, shared with `@Body()` and other
 * uploads, within the route's limits: `routeMultipartOptions`), then picks and checks the parameter's files. Answers an UploadFailure for a missing
 * or doubled `@UploadedFile`.
 */
export function uploadResolver(param: UploadParam): (req: TernRequest) => Promise<unknown> {
  const { name } = param;
  return async (req) => {
    const { files } = await req.multipart();
    const mine = name === undefined ? files : files.filter((file) => file.fieldName === name);
    for (const file of mine) checkFile(param, file);
    if (param.multiple) return mine;
    if (mine.length > 1) {
      return new UploadFailure(`Field '${name}' takes one file.`, name as string, `${name} takes one file, got ${mine.length}`);
    }
    if (mine.length === 0 && param.required) {
      return new UploadFailure(`File '${name}' is required.`, name as string, `${name} must be a file`);
    }
    return mine[0];
  };
}

/**
 * The route's multipart options: the declared ones, with `fileSize` and `files` derived from the
 * upload parameters when not declared (the largest `maxSize` when every parameter has one; the
 * number of single-file parameters when there are only those), so a body is refused while it
 * streams instead of after it was buffered.
 */
export function routeMultipartOptions(declared: MultipartOptions | undefined, uploads: readonly UploadParam[]): MultipartOptions | undefined {
  if (uploads.length === 0) return declared;
  const limits = { ...(declared?.limits ?? {}) };
  if (limits.fileSize === undefined && uploads.every((u) => u.maxSize !== undefined)) limits.fileSize = Math.max(...uploads.map((u) => u.maxSize as number));
  if (limits.files === undefined && uploads.every((u) => !u.multiple)) limits.files = uploads.length;
  return { ...declared, limits };
}

/** `consumes` of a route with uploads (as the options table checked it: lower-cased): multipart, which an explicit list must include. */
export function routeConsumes(where: string, declared: string[] | undefined, hasUploads: boolean): string[] | undefined {
  if (!hasUploads) return declared;
  if (declared === undefined) return ['multipart/form-data'];
  if (!declared.includes('multipart/form-data')) {
    throw new TernError('TERN_INVALID_BODY_OPTIONS', `${where} takes uploaded files, so its consumes option must include 'multipart/form-data'.`);
  }
  return declared;
}
