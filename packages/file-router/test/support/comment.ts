import { IsString, Length } from 'class-validator';

/** A comment under a post, for the page-with-a-form tests. */
export class CommentForm {
  @IsString() @Length(2, 40) name!: string;
  @IsString() @Length(3, 200) text!: string;
}
