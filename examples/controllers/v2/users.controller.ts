import { Controller, Get, HTTPException, Param, Query, Security, UseMiddleware, User } from '@tern/core';
import { noStore } from '../auth';
import { ListUsersQuery, UserPage, UserV2 } from '../dto';
import { paginate, type Page, type Store, type User as StoredUser } from '../store';

/**
 * Version 2 of the users resource: a fuller user shape, a paginated and searchable list (the
 * query string validated into `ListUsersQuery`), and `/me`.
 */
@Controller('/api/v2/users', { tags: ['users'], name: 'v2.users' })
export class UsersV2Controller {
  constructor(private readonly store: Store) {}

  @Get('/', { name: 'list', summary: 'Search users, a page at a time', description: 'Users whose name matches `q`, with paging.', responses: { 200: UserPage } })
  async list(@Query() query: ListUsersQuery): Promise<Page<UserV2>> {
    const users = this.store.listUsers({ search: query.search }).map((u) => this.toV2(u));
    return paginate(users, query.page ?? 1, query.limit ?? 20);
  }

  @Get('/me', { name: 'me', summary: 'The signed-in user', description: 'Who the bearer token belongs to.', responses: { 200: UserV2 } })
  @Security('bearerAuth')
  @UseMiddleware(noStore)
  async me(@User() user: StoredUser): Promise<UserV2> {
    return this.toV2(user);
  }

  @Get('/{id:int}', { name: 'get', summary: 'Get a user', description: 'One user by their id.', responses: { 200: UserV2 }, problems: { 404: 'No such user' } })
  async get(@Param('id') id: number): Promise<UserV2> {
    const user = this.store.findUser(id);
    if (!user) throw new HTTPException(404, `No user ${id}.`);
    return this.toV2(user);
  }

  private toV2(user: StoredUser): UserV2 {
    return { ...user, postCount: this.store.listPosts({ authorId: user.id }).length };
  }
}
