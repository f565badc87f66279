import { Body, Controller, Get, HTTPException, Param, Post, Security } from '@tern/core';
import { CreateUserDto, UserV1 } from '../dto';
import type { Store, User } from '../store';

/** Version 1 of the users resource: a short user shape, a plain list. */
@Controller('/api/v1/users', { tags: ['users'], name: 'v1.users' })
export class UsersV1Controller {
  constructor(private readonly store: Store) {}

  @Get('/', { name: 'list', summary: 'List users', description: 'Every registered user.', responses: { 200: [UserV1] } })
  async list(): Promise<UserV1[]> {
    return this.store.listUsers().map(toV1);
  }

  @Get('/{id:int}', { name: 'get', summary: 'Get a user', description: 'One user by their id.', responses: { 200: UserV1 }, problems: { 404: 'No such user' } })
  async get(@Param('id') id: number): Promise<UserV1> {
    const user = this.store.findUser(id);
    if (!user) throw new HTTPException(404, `No user ${id}.`);
    return toV1(user);
  }

  @Post('/', { name: 'create', summary: 'Register a user', description: 'Creates an account.', statusCode: 201, responses: { 201: UserV1 }, problems: { 409: 'The email is taken' } })
  @Security('bearerAuth')
  async create(@Body() body: CreateUserDto): Promise<UserV1> {
    if (this.store.findUserByEmail(body.email)) throw new HTTPException(409, `${body.email} is already registered.`);
    return toV1(this.store.createUser(body));
  }
}

function toV1(user: User): UserV1 {
  return { id: user.id, name: user.name };
}
