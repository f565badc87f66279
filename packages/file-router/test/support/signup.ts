import { IsEmail } from 'class-validator';

/** A one-field form model for route files written by tests. */
export class Signup {
  @IsEmail() email!: string;
}
