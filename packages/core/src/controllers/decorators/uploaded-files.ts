import type { UploadedFileOptions } from '../metadata';
import { parameter } from './params';
import { checkUploadOptions, requireFieldName } from './upload-options';

/**
 * The files of a `multipart/form-data` request as a list of `MultipartFile`: those of the form
 * field `name`, or every file when no name is given (an empty list when there are none).
 * `maxSize` and `mimeTypes` apply to each file, with the answers of {@link UploadedFile}.
 *
 * @example
 * @Post('/gallery')
 * async add(@UploadedFiles('photos', { mimeTypes: ['image/*'] }) photos: MultipartFile[], @Body() meta: GalleryDto) {
 *   return { count: photos.length, title: meta.title };
 * }
 */
export function UploadedFiles(name?: string, options?: UploadedFileOptions): ParameterDecorator {
  const label = name === undefined ? '@UploadedFiles()' : `@UploadedFiles('${requireFieldName('@UploadedFiles(name)', name)}')`;
  return parameter('files', label, { name, upload: checkUploadOptions(label, options, false) });
}
