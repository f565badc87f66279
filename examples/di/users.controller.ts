import { IsString, Length } from 'class-validator';
import { Body, Controller, Get, HTTPException, Param, Patch, Req, type TernRequest } from '@tern/core';
import { injectable } from 'tsyringe';
import { scopeOf } from './request-scope';
import { AuditTrail, UserRepository } from './services';

export class RenameUser {
  @IsString() @Length(1, 50) name!: string;
}

/**
 * Built once by the container (`resolve` in app.ts) with its app-wide dependencies; request
 * values come from the request's scope.
 */
@injectable()
@Controller('/users', { tags: ['users'] })
export class UsersController {
  constructor(private readonly users: UserRepository) {}

  @Get('/{id:int}', { summary: 'Get a user', description: 'The user with this id (404 when there is none).', problems: { 404: 'No such user' } })
  async get(@Param('id') id: number) {
    const user = this.users.find(id);
    if (!user) throw new HTTPException(404, `No user ${id}.`);
    return user;
  }

  @Patch('/{id:int}', { summary: 'Rename a user', description: 'Renames the user and records the change in the request-scoped audit trail.', problems: { 404: 'No such user' } })
  async rename(@Param('id') id: number, @Body() body: RenameUser, @Req() req: TernRequest) {
    const user = this.users.rename(id, body.name);
    if (!user) throw new HTTPException(404, `No user ${id}.`);
    // A request-scoped service: built from this request's child container.
    const audit = scopeOf(req).resolve(AuditTrail);
    return { user, audit: audit.entry(`rename user ${id}`) };
  }
}
