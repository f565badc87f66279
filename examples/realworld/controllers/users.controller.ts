import { ApiResponse, Body, Controller, Get, HTTPException, Post, Put, User } from '@tern/core';
import type { Tokens } from '../auth';
import type { Account, Conduit } from '../conduit';
import { Authenticated } from '../security';
import { GenericErrorModel, LoginUserRequest, NewUserRequest, UpdateUserRequest, UserResponse } from '../dto';

/** Registration, login and the signed-in user (`/users`, `/user`). */
@Controller('/', { tags: ['User and Authentication'], name: 'users' })
export class UsersController {
  constructor(
    private readonly conduit: Conduit,
    private readonly tokens: Tokens,
  ) {}

  @Post('/users/login', { name: 'login', summary: 'Existing user login', description: 'Exchanges an email and password for the user and a token.', responses: { 200: UserResponse } })
  @ApiResponse(401, GenericErrorModel)
  async login(@Body() body: LoginUserRequest): Promise<UserResponse> {
    const account = await this.conduit.login(body.user.email, body.user.password);
    if (!account) throw new HTTPException(401, 'email or password is invalid');
    return this.signedIn(account);
  }

  @Post('/users', { name: 'register', summary: 'Register a new user', description: 'Creates an account; the username and email must be unused.', statusCode: 201, responses: { 201: UserResponse } })
  async register(@Body() body: NewUserRequest): Promise<UserResponse> {
    return this.signedIn(await this.conduit.register(body.user));
  }

  @Get('/user', { name: 'current', summary: 'Get current user', description: 'The account the token belongs to, with a fresh token.', responses: { 200: UserResponse } })
  @Authenticated()
  async current(@User() account: Account): Promise<UserResponse> {
    return this.signedIn(account);
  }

  @Put('/user', { name: 'update', summary: 'Update current user', description: 'Changes the fields sent; `bio` and `image` may be set to null.', responses: { 200: UserResponse } })
  @Authenticated()
  async update(@Body() body: UpdateUserRequest, @User() account: Account): Promise<UserResponse> {
    return this.signedIn(await this.conduit.updateAccount(account.id, body.user));
  }

  private signedIn(account: Account): UserResponse {
    // The row goes out whole: UserResponse keeps email, username, bio and image, and drops
    // password_hash and id.
    return { user: { ...account, token: this.tokens.sign({ userId: account.id }) } };
  }
}
