import { ApiResponse, Controller, Delete, Get, Param, Post, User } from '@tern/core';
import type { Account, Conduit } from '../conduit';
import { GenericErrorModel, ProfileResponse } from '../dto';
import { Authenticated, OptionalAuth } from '../security';

/** Profiles and follows (`/profiles/{username}`). */
@Controller('/profiles/{username}', { tags: ['Profile'], name: 'profiles' })
@ApiResponse(404, GenericErrorModel)
export class ProfilesController {
  constructor(private readonly conduit: Conduit) {}

  @Get('/', { name: 'get', summary: 'Get a profile', description: 'Auth is optional: a signed-in reader learns whether they follow this user.', responses: { 200: ProfileResponse } })
  @OptionalAuth()
  async get(@Param('username') username: string, @User() viewer?: Account): Promise<ProfileResponse> {
    return { profile: await this.conduit.profile(username, viewer?.id) };
  }

  @Post('/follow', { name: 'follow', summary: 'Follow a user', description: 'Their articles then appear in your feed.', responses: { 200: ProfileResponse }, problems: { 422: 'Following yourself' } })
  @Authenticated()
    async follow(@Param('username') username: string, @User() viewer: Account): Promise<ProfileResponse> {
    return { profile: await this.conduit.follow(viewer.id, username, true) };
  }

  @Delete('/follow', { name: 'unfollow', summary: 'Unfollow a user', description: 'Stops following; not following already is not an error.', responses: { 200: ProfileResponse }, problems: { 422: 'Unfollowing yourself' } })
  @Authenticated()
    async unfollow(@Param('username') username: string, @User() viewer: Account): Promise<ProfileResponse> {
    return { profile: await this.conduit.follow(viewer.id, username, false) };
  }
}
