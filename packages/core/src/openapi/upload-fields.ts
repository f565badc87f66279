import type { AnyRoutes } from '../routing/routes';

/** A file field of a route's multipart body, as the document describes it. */
export interface UploadField {
  /** Undefined for "every file" (`@UploadedFiles()`). */
  name?: string;
  multiple: boolean;
  required: boolean;
  mimeTypes?: string[];
}

/**
 * The file fields of routes whose handler reads uploads (a controller's `@UploadedFile`): the
 * scanner marks them, the document builder lists them as `format: binary` properties. Kept
 * beside the route, like `markChecksInput`, since it is what Tern knows about a handler it built.
 */
const fields = new WeakMap<AnyRoutes, readonly UploadField[]>();

export function markUploadFields(route: AnyRoutes, uploads: readonly UploadField[]): void {
  fields.set(route, uploads);
}

export function uploadFieldsOf(route: AnyRoutes): readonly UploadField[] | undefined {
  return fields.get(route);
}
