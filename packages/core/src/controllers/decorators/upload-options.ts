import type { UploadedFileOptions } from '../metadata';
import { misuse } from './targets';

const MEDIA_RANGE = /^[a-z0-9!#$&^_.+-]+\/(?:\*|[a-z0-9!#$&^_.+-]+)$/i;

/** Checks upload options when the class is defined; returns a copy with media types lowercased. */
export function checkUploadOptions(label: string, options: UploadedFileOptions | undefined, single: boolean): UploadedFileOptions {
  if (options === undefined) return {};
  if (typeof options !== 'object' || options === null) throw misuse(`${label}: options must be an object ({ maxSize, mimeTypes${single ? ', required' : ''} }).`);
  const { maxSize, mimeTypes, required } = options;
  if (maxSize !== undefined && (!Number.isInteger(maxSize) || maxSize <= 0)) throw misuse(`${label}: maxSize must be a positive whole number of bytes.`);
  if (mimeTypes !== undefined && (!Array.isArray(mimeTypes) || mimeTypes.length === 0 || !mimeTypes.every((t) => typeof t === 'string' && MEDIA_RANGE.test(t)))) {
    throw misuse(`${label}: mimeTypes must be a non-empty list of media types such as 'image/png' or 'image/*'.`);
  }
  if (required !== undefined && (!single || typeof required !== 'boolean')) throw misuse(`${label}: required is a boolean option of @UploadedFile.`);
  return { maxSize, mimeTypes: mimeTypes?.map((t) => t.toLowerCase()), required };
}

export function requireFieldName(label: string, name: unknown): string {
  if (typeof name !== 'string' || name === '') throw misuse(`${label} expects the form field name as a non-empty string.`);
  return name;
}
