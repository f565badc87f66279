/**
 * The same kind of upload as `POST /avatars`, written as a controller: the decorators read the
 * multipart body once, check each file's size and type while it streams, and validate the text
 * fields with a model.
 */
import { Type } from 'class-transformer';
import { IsInt, IsString, Length, Max, Min } from 'class-validator';
import { Body, Controller, Integer, Post, UploadedFile, UploadedFiles, type MultipartFile } from '@tern/core';

export class PhotoMeta {
  @IsString() @Length(1, 80) title: string;
  // Form fields arrive as text: @Type converts before the rules run.
  @Type(() => Number) @IsInt() @Min(1826) @Max(2100) year: number;
}

@Controller('/photos', { tags: ['photos'] })
export class PhotosController {
  @Post('/', { summary: 'Upload a photo', description: 'A PNG or JPEG of at most 512 KiB in the field `photo`, with its title and year.', statusCode: 201, responses: { 201: { title: String, year: Integer, type: String, size: Integer } } })
  async create(
    @UploadedFile('photo', { maxSize: 512 * 1024, mimeTypes: ['image/png', 'image/jpeg'] }) photo: MultipartFile,
    @Body() meta: PhotoMeta,
  ) {
    return { title: meta.title, year: meta.year, type: photo.mimeType, size: photo.size };
  }

  @Post('/gallery', { summary: 'Upload several photos', description: 'Any number of images in the field `photos`.', responses: { 200: { count: Integer, bytes: Integer } } })
  async gallery(@UploadedFiles('photos', { mimeTypes: ['image/*'] }) photos: MultipartFile[]) {
    return { count: photos.length, bytes: photos.reduce((sum, photo) => sum + photo.size, 0) };
  }
}
