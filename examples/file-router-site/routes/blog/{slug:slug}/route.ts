// GET /blog/{slug:slug} — one post. The folder name is the parameter: req.pathParams.slug.
import { HTTPException, type TernRequest } from '@tern/core';
import { markAsRoute, render } from '@tern/file-router';
import { findPost } from '../../../posts';

export const get = markAsRoute(
  { name: 'blog.post', excludeFromSchema: true },
  render('post.html', async (req: TernRequest<{ slug: string }>) => {
    const post = findPost(req.pathParams.slug);
    // The app's 404 handler turns this into the custom 404 page.
    if (!post) throw new HTTPException(404, `No post is called '${req.pathParams.slug}'.`);
    return { post };
  }),
);
