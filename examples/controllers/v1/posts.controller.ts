import {
  Body,
  Controller,
  Delete,
  Get,
  HTTPException,
  Param,
  Patch,
  Post,
  Public,
  Query,
  Security,
  User,
} from '@tern/core';
import { CreatePostDto, PostDto, UpdatePostDto } from '../dto';
import type { User as Account, Post as StoredPost, Store } from '../store';

/**
 * Posts. Every route requires a bearer token (class-level `@Security`) except the reads,
 * which `@Public()` opens.
 */
@Controller('/api/v1/posts', { tags: ['posts'], name: 'v1.posts' })
@Security('bearerAuth')
export class PostsV1Controller {
  constructor(private readonly store: Store) {}

  @Get('/', { name: 'list', summary: 'List posts', description: 'Every post, newest last.', responses: { 200: [PostDto] } })
  @Public()
  async list(@Query('authorId') authorId?: number, @Query('tag') tag?: string): Promise<StoredPost[]> {
    return this.store.listPosts({ authorId, tag });
  }

  @Get('/{id:int}', { name: 'get', summary: 'Get a post', description: 'One post by its id.', responses: { 200: PostDto }, problems: { 404: 'No such post' } })
  @Public()
  async get(@Param('id') id: number): Promise<StoredPost> {
    return this.find(id);
  }

  @Post('/', { name: 'create', summary: 'Write a post', description: 'Publishes a post as the signed-in user.', statusCode: 201, responses: { 201: PostDto } })
  async create(@Body() body: CreatePostDto, @User() author: Account): Promise<StoredPost> {
    // enforceSecurity has checked the token: `@User()` is the account it belongs to.
    return this.store.createPost(author.id, body);
  }

  @Patch('/{id:int}', { name: 'update', summary: 'Edit your post', description: 'Changes the fields sent; only the author may.', responses: { 200: PostDto }, problems: { 403: 'Not your post', 404: 'No such post' } })
  async update(@Param('id') id: number, @Body() body: UpdatePostDto, @User() user: Account): Promise<StoredPost> {
    this.ownedBy(this.find(id), user);
    return this.store.updatePost(id, body);
  }

  @Delete('/{id:int}', { name: 'delete', summary: 'Delete your post', description: 'Removes the post; only the author may.', statusCode: 204, problems: { 403: 'Not your post', 404: 'No such post' } })
  async remove(@Param('id') id: number, @User() user: Account): Promise<void> {
    this.ownedBy(this.find(id), user);
    this.store.deletePost(id);
  }

  private find(id: number): StoredPost {
    const post = this.store.findPost(id);
    if (!post) throw new HTTPException(404, `No post ${id}.`);
    return post;
  }

  private ownedBy(post: StoredPost, user: Account): void {
    if (post.authorId !== user.id) throw new HTTPException(403, 'Only the author can change a post.');
  }
}
