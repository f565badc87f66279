/**
 * Request and response classes. One class both validates what clients send (class-validator)
 * and describes it in the OpenAPI document.
 */
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsDate, IsEmail, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { ApiProperty, PartialType } from '@tern/core';

export class CreateUserDto {
  // @ApiProperty only documents (description, example); the class-validator rules validate.
  @ApiProperty({ description: 'Shown beside their posts', example: 'Ada Lovelace' })
  @IsString() @Length(1, 80) name: string;
  @ApiProperty({ example: 'ada@example.org' })
  @IsEmail() email: string;
}

export class CreatePostDto {
  @IsString() @Length(1, 120) title: string;
  @IsString() @Length(1, 10_000) body: string;
  @IsOptional() @IsArray() @ArrayMaxSize(5) @IsString({ each: true }) tags?: string[];
}

/** The same fields and rules as CreatePostDto, each optional: a PATCH changes what it sends. */
export class UpdatePostDto extends PartialType(CreatePostDto) {}

/**
 * `?page=2&limit=10`. Query values arrive as strings: Tern converts them by the declared
 * property type (`number` here) before the rules run, so `@IsInt` sees a number.
 */
export class PageQuery {
  @IsOptional() @IsInt() @Min(1) page?: number;
  @IsOptional() @IsInt() @Min(1) @Max(100) limit?: number;
}

export class ListUsersQuery extends PageQuery {
  @IsOptional() @IsString() @Length(1, 40) search?: string;
}

export class ListPostsQuery extends PageQuery {
  @IsOptional() @IsInt() authorId?: number;
  @IsOptional() @IsString() tag?: string;
}

// Responses (documentation only: what the API sends back).

export class UserV1 {
  @IsInt() id: number;
  @IsString() name: string;
}

export class UserV2 {
  @IsInt() id: number;
  @IsString() name: string;
  @IsEmail() email: string;
  @IsDate() @Type(() => Date) createdAt: Date;
  @IsInt() postCount: number;
}

export class PostDto {
  @IsInt() id: number;
  @IsInt() authorId: number;
  @IsString() title: string;
  @IsString() body: string;
  @IsArray() @IsString({ each: true }) tags: string[];
  @IsDate() @Type(() => Date) createdAt: Date;
}

export class UserPage {
  @IsArray() @ValidateNested({ each: true }) @Type(() => UserV2) items: UserV2[];
  @IsInt() page: number;
  @IsInt() limit: number;
  @IsInt() total: number;
}

export class PostPage {
  @IsArray() @ValidateNested({ each: true }) @Type(() => PostDto) items: PostDto[];
  @IsInt() page: number;
  @IsInt() limit: number;
  @IsInt() total: number;
}
