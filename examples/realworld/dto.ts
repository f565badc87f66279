/**
 * RealWorld's JSON, as class-validator models. Request models validate (a failure is the spec's
 * 422); response models filter what leaves the server and document it, so a row's
 * `password_hash` or `author_id` never reaches a client.
 */
import { IsRecord, Nullable, OmitType } from '@tern/core';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDate,
  IsEmail,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

// ---- requests ----

export class LoginUser {
  @IsEmail() email: string;
  @IsString() @IsNotEmpty() password: string;
}

export class LoginUserRequest {
  @IsObject() @ValidateNested() @Type(() => LoginUser) user: LoginUser;
}

export class NewUser {
  @IsString() @IsNotEmpty() @MaxLength(64) username: string;
  @IsEmail() email: string;
  @IsString() @MinLength(8) @MaxLength(200) password: string;
}

export class NewUserRequest {
  @IsObject() @ValidateNested() @Type(() => NewUser) user: NewUser;
}

/**
 * Every field optional, as PUT /user sends only what changes. `username`, `email` and `password`
 * are NOT NULL columns: `@ValidateIf(… !== undefined)` checks them whenever they are present, so
 * `null` is a 422 (`@IsOptional()` would let it through to the database). `bio` and `image` may
 * be set to `null` to clear them.
 */
export class UpdateUser {
  @ValidateIf((o: UpdateUser) => o.email !== undefined) @IsEmail() email?: string;
  @ValidateIf((o: UpdateUser) => o.username !== undefined) @IsString() @IsNotEmpty() @MaxLength(64) username?: string;
  @ValidateIf((o: UpdateUser) => o.password !== undefined) @IsString() @MinLength(8) @MaxLength(200) password?: string;
  @IsOptional() @IsString() @MaxLength(2000) bio?: string | null;
  @IsOptional() @IsString() @MaxLength(2000) image?: string | null;
}

export class UpdateUserRequest {
  @IsObject() @ValidateNested() @Type(() => UpdateUser) user: UpdateUser;
}

export class NewArticle {
  @IsString() @IsNotEmpty() @MaxLength(200) title: string;
  @IsString() @IsNotEmpty() @MaxLength(1000) description: string;
  @IsString() @IsNotEmpty() @MaxLength(100_000) body: string;
  @IsOptional() @IsArray() @ArrayMaxSize(20) @IsString({ each: true }) @IsNotEmpty({ each: true }) @MaxLength(64, { each: true }) tagList?: string[];
}

export class NewArticleRequest {
  @IsObject() @ValidateNested() @Type(() => NewArticle) article: NewArticle;
}

export class UpdateArticle {
  @ValidateIf((o: UpdateArticle) => o.title !== undefined) @IsString() @IsNotEmpty() @MaxLength(200) title?: string;
  @ValidateIf((o: UpdateArticle) => o.description !== undefined) @IsString() @IsNotEmpty() @MaxLength(1000) description?: string;
  @ValidateIf((o: UpdateArticle) => o.body !== undefined) @IsString() @IsNotEmpty() @MaxLength(100_000) body?: string;
}

export class UpdateArticleRequest {
  @IsObject() @ValidateNested() @Type(() => UpdateArticle) article: UpdateArticle;
}

export class NewComment {
  @IsString() @IsNotEmpty() @MaxLength(10_000) body: string;
}

export class NewCommentRequest {
  @IsObject() @ValidateNested() @Type(() => NewComment) comment: NewComment;
}

/**
 * The largest offset asked for: articles have `serial` (32-bit) ids, so no list is longer, and
 * PostgreSQL's `OFFSET` is a 64-bit integer that `offset=1e20` (an integer to `@IsInt()`) would
 * overflow into a 500.
 */
export const MAX_OFFSET = 2_147_483_647;

/** `?limit=&offset=` of the article lists: RealWorld's defaults (20, 0), bounded; out of range is a 422. */
export class Paging {
  @IsOptional() @Type(() => Number) @IsInt() @Min(1) @Max(100) limit?: number;
  @IsOptional() @Type(() => Number) @IsInt() @Min(0) @Max(MAX_OFFSET) offset?: number;
}

/** `GET /articles`: paging plus the filters, each optional. */
export class ArticleQuery extends Paging {
  @IsOptional() @IsString() @MaxLength(64) tag?: string;
  @IsOptional() @IsString() @MaxLength(64) author?: string;
  @IsOptional() @IsString() @MaxLength(64) favorited?: string;
}

// ---- responses ----

export class User {
  @IsEmail() email: string;
  @IsString() token: string;
  @IsString() username: string;
  /** Always sent, `null` until set: RealWorld's "required and nullable". */
  @Nullable() @IsString() bio: string | null;
  @Nullable() @IsString() image: string | null;
}

export class UserResponse {
  @ValidateNested() @Type(() => User) user: User;
}

export class Profile {
  @IsString() username: string;
  @Nullable() @IsString() bio: string | null;
  @Nullable() @IsString() image: string | null;
  @IsBoolean() following: boolean;
}

export class ProfileResponse {
  @ValidateNested() @Type(() => Profile) profile: Profile;
}

export class Article {
  @IsString() slug: string;
  @IsString() title: string;
  @IsString() description: string;
  @IsString() body: string;
  @IsArray() @IsString({ each: true }) tagList: string[];
  @IsDate() createdAt: Date;
  @IsDate() updatedAt: Date;
  @IsBoolean() favorited: boolean;
  @IsInt() favoritesCount: number;
  @ValidateNested() @Type(() => Profile) author: Profile;
}

/**
 * An article in a list (`GET /articles`, the feed): all but `body`, which RealWorld's lists stopped
 * sending in August 2024 ("for performance reasons", its response-format page).
 */
export class ArticlePreview extends OmitType(Article, ['body']) {}

export class SingleArticleResponse {
  @ValidateNested() @Type(() => Article) article: Article;
}

export class MultipleArticlesResponse {
  @IsArray() @ValidateNested({ each: true }) @Type(() => ArticlePreview) articles: ArticlePreview[];
  @IsInt() articlesCount: number;
}

export class Comment {
  @IsInt() id: number;
  @IsDate() createdAt: Date;
  @IsDate() updatedAt: Date;
  @IsString() body: string;
  @ValidateNested() @Type(() => Profile) author: Profile;
}

export class SingleCommentResponse {
  @ValidateNested() @Type(() => Comment) comment: Comment;
}

export class MultipleCommentsResponse {
  @IsArray() @ValidateNested({ each: true }) @Type(() => Comment) comments: Comment[];
}

export class TagsResponse {
  @IsArray() @IsString({ each: true }) tags: string[];
}

/**
 * RealWorld's error body, for every 4xx this API answers: `errors` maps a name to its messages.
 * RealWorld's clients show every key (`email has already been taken`); errors.ts writes them all
 * under `body` (`{"errors":{"body":["…"]}}`), which this map documents and the filter keeps.
 */
export class GenericErrorModel {
  @IsRecord(() => [String]) errors: Record<string, string[]>;
}
