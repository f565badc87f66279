// GET /api/posts lists posts; POST /api/posts adds one (body validated against NewPost).
import { HTTPException, type TernRequest } from '@tern/core';
import { markAsRoute } from '@tern/file-router';
import { NewPost, PostDto, PostSummary } from '../../../models';
import { addPost, listPosts } from '../../../posts';

export const get = markAsRoute(
  { name: 'api.posts.list', summary: 'List posts', description: 'Every post, without its body.', tags: ['posts'], responseModel: [PostSummary] },
  async () => listPosts().map(({ slug, title, summary, published }) => ({ slug, title, summary, published })),
);

export const post = markAsRoute(
  {
    name: 'api.posts.create',
    summary: 'Add a post',
    description: 'Publishes a post today; its slug must be free.',
    tags: ['posts'],
    requestModel: NewPost,
    statusCode: 201,
    responseModel: PostDto,
    problems: { 409: 'A post already has this slug' },
  },
  async (req: TernRequest) => {
    const input = req.body as NewPost;
    const post = { ...input, published: new Date().toISOString().slice(0, 10) };
    if (!addPost(post)) throw new HTTPException(409, `A post is already called '${post.slug}'.`);
    return post;
  },
);
