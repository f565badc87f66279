/** Models of the JSON API: validation for the POST body and schemas for the OpenAPI document. */
import { ArrayNotEmpty, IsArray, IsISO8601, IsString, Length, Matches } from 'class-validator';

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
  @IsISO8601() published: string;
}

export class PostDto extends PostSummary {
  @IsArray() @IsString({ each: true }) body: string[];
}
