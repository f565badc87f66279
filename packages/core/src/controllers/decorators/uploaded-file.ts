import type { UploadedFileOptions } from '../metadata';
import { parameter } from './params';
import { checkUploadOptions, requireFieldName } from './upload-options';

/**
 * One file of a `multipart/form-data` request, from the form field `name`, as a `MultipartFile`
 * (`fieldName`, `filename`, `mimeType`, `size`, `buffer`) held in memory. The route then
 * consumes multipart bodies (another Content-Type is a 415) and its OpenAPI request body lists
 * the file as `format: binary`. A missing file is a 422 (unless `required: false`), two files
 * in the field a 422, a file over `maxSize` a 413, a type outside `mimeTypes` a 415 naming the
 * accepted types. `mimeType` is what the client declared, not sniffed from the bytes.
 *
 * @example
 * @Post('/avatar')
 * async upload(@UploadedFile('avatar', { maxSize: 1024 * 1024, mimeTypes: ['image/png', 'image/jpeg'] }) avatar: MultipartFile) {
 *   return { size: avatar.size, type: avatar.mimeType };
 * }
 */
export function UploadedFile(name: string, options?: UploadedFileOptions): ParameterDecorator {
  const label = `@UploadedFile('${requireFieldName('@UploadedFile(name)', name)}')`;
  return parameter('file', label, { name, upload: checkUploadOptions(label, options, true) });
}
