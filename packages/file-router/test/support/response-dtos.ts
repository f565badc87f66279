/** Response models the route files of response-filtering.test.ts import by absolute path. */
import { Exclude } from 'class-transformer';
import { IsEmail, IsInt, IsString } from 'class-validator';

export class MeDto {
  @IsInt() id: number;
  @IsEmail() email: string;
  @Exclude() @IsString() passwordHash: string;
}

export const ENTITY = { id: 1, email: 'ada@example.com', passwordHash: '$2b$10$secret', resetToken: 'reset-1' };
