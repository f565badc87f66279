/** Models: validation for the API's POST body and the contact form, schemas for the OpenAPI document. */
import { ApiProperty } from '@tern/core';
import { ArrayNotEmpty, IsArray, IsEmail, IsString, Length, Matches } from 'class-validator';

export class NewPost {
  @IsString() @Matches(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, { message: 'slug must be lowercase words joined by dashes' }) slug: string;
  @IsString() @Length(1, 120) title: string;
  @IsString() @Length(0, 300) summary: string;
  @IsArray() @ArrayNotEmpty() @IsString({ each: true }) body: string[];
}

export class PostSummary {
  @IsString() slug: string;
  @IsString() title: string;
  @IsString() summary: string;
  /** A calendar date (`2026-11-09`), not a date-time: documented as `format: date`. */
  @IsString() @Matches(/^\d{4}-\d{2}-\d{2}$/) @ApiProperty({ format: 'date' }) published: string;
}

export class PostDto extends PostSummary {
  @IsArray() @IsString({ each: true }) body: string[];
}

/** The contact form, posted as `application/x-www-form-urlencoded` by the browser. */
export class ContactForm {
  @IsString() @Length(2, 80, { message: 'Please give a name of 2 to 80 characters.' }) name: string;
  @IsEmail({}, { message: 'Please give an email address we can answer.' }) email: string;
  @IsString() @Length(10, 2000, { message: 'A message is 10 to 2000 characters long.' }) message: string;
}
