import { ApiResponse, Body, Controller, Delete, Get, Param, Post, User } from '@tern/core';
import type { Account, Conduit } from '../conduit';
import { GenericErrorModel, MultipleCommentsResponse, NewCommentRequest, SingleCommentResponse } from '../dto';
import { Authenticated, OptionalAuth } from '../security';

/** Comments on an article (`/articles/{slug}/comments`). */
@Controller('/articles/{slug}/comments', { tags: ['Comments'], name: 'comments' })
@ApiResponse(404, GenericErrorModel)
export class CommentsController {
  constructor(private readonly conduit: Conduit) {}

  @Get('/', { name: 'list', summary: 'Get comments for an article', description: 'Oldest first. Auth is optional.', responses: { 200: MultipleCommentsResponse } })
  @OptionalAuth()
  async list(@Param('slug') slug: string, @User() viewer?: Account): Promise<MultipleCommentsResponse> {
    return { comments: await this.conduit.comments(slug, viewer?.id) };
  }

  @Post('/', { name: 'create', summary: 'Create a comment for an article', description: 'Adds a comment as the signed-in user.', responses: { 200: SingleCommentResponse } })
  @Authenticated()
  async create(@Param('slug') slug: string, @Body() body: NewCommentRequest, @User() author: Account): Promise<SingleCommentResponse> {
    return { comment: await this.conduit.addComment(slug, author.id, body.comment.body) };
  }

  @Delete('/{id:int32}', { name: 'delete', summary: 'Delete a comment for an article', description: 'Only its author may.', statusCode: 204 })
  @Authenticated()
  @ApiResponse(403, GenericErrorModel)
  async remove(@Param('slug') slug: string, @Param('id') id: number, @User() user: Account): Promise<void> {
    await this.conduit.deleteComment(slug, id, user.id);
  }
}
