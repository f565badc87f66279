// GET / — the home page: every post, newest first.
import { markAsRoute, render } from '@tern/file-router';
import { listPosts } from '../posts';

export const get = markAsRoute(
  { name: 'home', excludeFromSchema: true },
  render('home.html', async () => ({ posts: listPosts() })),
);
