/**
 * Responses by contract: the routes declare what they answer (`responses: { 200: MeDto }`,
 * `@ApiResponse(200, [UserDto])`), and Tern sends only that, whatever the service returned.
 * The "database" hands back full user rows, password hashes included; none leaves the server.
 */
import 'reflect-metadata';
import { Exclude, Expose, Type } from 'class-transformer';
import { IsDate, IsEmail, IsInt, IsObject, IsString, ValidateNested } from 'class-validator';
import { ApiResponse, Controller, Get, HTTPException, MakeConfig, Nullable, Param, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

export class TeamDto {
  @IsString() name: string;
}

/** What `/auth/me` answers: the signed-in user, never their secrets. */
export class MeDto {
  @IsInt() id: number;
  @IsEmail() email: string;
  @Expose({ name: 'display_name' }) @IsString() displayName: string;
  @IsDate() createdAt: Date;
  @IsObject() @ValidateNested() @Type(() => TeamDto) team: TeamDto;
  @Exclude() @IsString() passwordHash: string;
}

/** What the user list shows of other people. */
export class UserDto {
  @IsInt() id: number;
  @Expose({ name: 'display_name' }) @IsString() displayName: string;
}

/** The export's team: every column, the budget included. */
export class TeamRowDto {
  @IsString() name: string;
  @IsInt() budget: number;
}

/** What the unfiltered admin export sends, documented as it is: the whole row. */
export class UserRowDto {
  @IsInt() id: number;
  @IsEmail() email: string;
  @IsString() displayName: string;
  @IsDate() createdAt: Date;
  @IsObject() @ValidateNested() @Type(() => TeamRowDto) team: TeamRowDto;
  @IsString() passwordHash: string;
  @Nullable() @IsString() resetToken: string | null;
}

/** A row as an ORM returns it: every column. */
export interface UserRow {
  id: number;
  email: string;
  displayName: string;
  createdAt: Date;
  team: { name: string; budget: number };
  passwordHash: string;
  resetToken: string | null;
}

export const rows: UserRow[] = [
  {
    id: 1,
    email: 'ada@example.com',
    displayName: 'Ada',
    createdAt: new Date('2024-05-01T09:00:00Z'),
    team: { name: 'Engines', budget: 120_000 },
    passwordHash: '$2b$10$9hGm…',
    resetToken: null,
  },
  {
    id: 2,
    email: 'grace@example.com',
    displayName: 'Grace',
    createdAt: new Date('2024-06-12T14:30:00Z'),
    team: { name: 'Compilers', budget: 95_000 },
    passwordHash: '$2b$10$Qx7c…',
    resetToken: 'f1e2d3',
  },
];

@Controller('/users', { tags: ['users'] })
class UsersController {
  @Get('/', { summary: 'List users', description: 'Every user, filtered by UserDto: no password hash leaves the server.' })
  @ApiResponse(200, [UserDto])
  async list() {
    return rows;
  }

  @Get('/{id:int}', { summary: 'Get a user', description: 'One user, filtered by UserDto.', responses: { 200: UserDto }, problems: { 404: 'No such user' } })
  async get(@Param('id') id: number) {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new HTTPException(404, `No user ${id}`);
    return row;
  }
}

export function buildApp(config: ConstructorParameters<typeof MakeConfig>[0] = {}): TernApp {
  const app = new TernApp({
    config: new MakeConfig(config),
    openapi: exampleOpenAPI({
      title: 'Users (responses by contract)',
      description: 'Declared response models filter what is sent.',
      tags: [{ name: 'users', description: 'Users as their DTO shows them.' }, { name: 'auth', description: 'The signed-in user.' }, { name: 'admin', description: 'Administration.' }],
    }),
  });
  // The signed-in user would come from a session; user 1 stands in for it here.
  app.get('/auth/me', { summary: 'The signed-in user', description: 'The user behind the session, as MeDto declares it.', tags: ['auth'], responses: { 200: MeDto } }, async () => rows[0]);
  // An admin export that must send rows whole: this one route opts out.
  app.get('/admin/export', { summary: 'Export every user', description: 'Whole rows for an admin export: this route opts out of filtering.', tags: ['admin'], responses: { 200: [UserRowDto] }, responseFiltering: false }, async () => rows);
  app.registerControllers([UsersController]);
  return app;
}
