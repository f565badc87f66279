import { Controller, Get, Query } from '@tern/core';
import { ListPostsQuery, PostPage } from '../dto';
import { paginate, type Page, type Post, type Store } from '../store';

/** Version 2 of the post list: paginated, filters validated as one query object. */
@Controller('/api/v2/posts', { tags: ['posts'], name: 'v2.posts' })
export class PostsV2Controller {
  constructor(private readonly store: Store) {}

  @Get('/', { name: 'list', summary: 'List posts, a page at a time', description: 'Posts with paging (`page`, `limit`).', responses: { 200: PostPage } })
  async list(@Query() query: ListPostsQuery): Promise<Page<Post>> {
    const posts = this.store.listPosts({ authorId: query.authorId, tag: query.tag });
    return paginate(posts, query.page ?? 1, query.limit ?? 20);
  }
}
