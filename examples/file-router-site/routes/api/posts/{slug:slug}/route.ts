// GET /api/posts/{slug:slug} — one post as JSON.
import { HTTPException, type TernRequest } from '@tern/core';
import { markAsRoute } from '@tern/file-router';
import { PostDto } from '../../../../models';
import { findPost } from '../../../../posts';

export const get = markAsRoute(
  {
    name: 'api.posts.get',
    summary: 'Get a post',
    description: 'One post, with its body, by its slug.',
    tags: ['posts'],
    responseModel: PostDto,
    problems: { 404: 'No such post' },
  },
  async (req: TernRequest<{ slug: string }>) => {
    const post = findPost(req.pathParams.slug);
    if (!post) throw new HTTPException(404, `No post is called '${req.pathParams.slug}'.`);
    return post;
  },
);
