import { IsArray, IsInt, IsOptional, IsString, Length } from 'class-validator';

/** What a client sends to create a note: validated, and described in the document, from one class. */
export class CreateNote {
  @IsString() @Length(1, 120) title: string;
  @IsOptional() @IsString() body?: string;
  @IsOptional() @IsArray() @IsString({ each: true }) tags?: string[];
}

export class Note {
  @IsInt() id: number;
  @IsString() title: string;
  @IsString() body: string;
  @IsArray() @IsString({ each: true }) tags: string[];
  /** Who created it: a user name, or the service behind an API key. */
  @IsString() owner: string;
}
