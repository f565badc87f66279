// GET /admin — the admins' overview; routes/admin/_middleware.ts lets only admins in.
import { markAsRoute, render } from '@tern/file-router';
import { listPosts } from '../../posts';
import { authorCount } from '../../users';

export const get = markAsRoute(
  { name: 'admin', excludeFromSchema: true },
  render('admin.html', async () => ({ posts: listPosts().length, authors: authorCount() })),
);
