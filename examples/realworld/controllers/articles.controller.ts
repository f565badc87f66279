import { ApiResponse, Body, Controller, Delete, Get, Param, Post, Put, Query, User } from '@tern/core';
import type { Account, Conduit } from '../conduit';
import { pageOf } from '../paging';
import { ArticleQuery, GenericErrorModel, MultipleArticlesResponse, Paging, NewArticleRequest, SingleArticleResponse, UpdateArticleRequest } from '../dto';
import { Authenticated, OptionalAuth } from '../security';

/** Articles, the feed and favorites (`/articles`). */
@Controller('/articles', { tags: ['Articles'], name: 'articles' })
export class ArticlesController {
  constructor(private readonly conduit: Conduit) {}

  @Get('/', { name: 'list', summary: 'Get recent articles globally', description: 'Newest first, filtered by tag, author or who favorited them. Auth is optional.', responses: { 200: MultipleArticlesResponse } })
  @OptionalAuth()
  async list(@Query() query: ArticleQuery, @User() viewer?: Account): Promise<MultipleArticlesResponse> {
    return this.conduit.listArticles(query, pageOf(query), viewer?.id);
  }

  @Get('/feed', { name: 'feed', summary: 'Get recent articles from users you follow', description: 'Newest first, paged by limit and offset.', responses: { 200: MultipleArticlesResponse } })
  @Authenticated()
  async feed(@User() viewer: Account, @Query() paging: Paging): Promise<MultipleArticlesResponse> {
    return this.conduit.listArticles({ followedBy: viewer.id }, pageOf(paging), viewer.id);
  }

  @Get('/{slug}', { name: 'get', summary: 'Get an article', description: 'One article by its slug. Auth is optional.', responses: { 200: SingleArticleResponse } })
  @OptionalAuth()
  @ApiResponse(404, GenericErrorModel)
  async get(@Param('slug') slug: string, @User() viewer?: Account): Promise<SingleArticleResponse> {
    return { article: await this.conduit.article(slug, viewer?.id) };
  }

  @Post('/', { name: 'create', summary: 'Create an article', description: 'Publishes an article as the signed-in user; its slug comes from the title.', statusCode: 201, responses: { 201: SingleArticleResponse } })
  @Authenticated()
  async create(@Body() body: NewArticleRequest, @User() author: Account): Promise<SingleArticleResponse> {
    return { article: await this.conduit.createArticle(author.id, body.article) };
  }

  @Put('/{slug}', { name: 'update', summary: 'Update an article', description: 'Only its author may; a new title gives a new slug.', responses: { 200: SingleArticleResponse } })
  @Authenticated()
  @ApiResponse(403, GenericErrorModel)
  @ApiResponse(404, GenericErrorModel)
  async update(@Param('slug') slug: string, @Body() body: UpdateArticleRequest, @User() user: Account): Promise<SingleArticleResponse> {
    return { article: await this.conduit.updateArticle(slug, user.id, body.article) };
  }

  @Delete('/{slug}', { name: 'delete', summary: 'Delete an article', description: 'Only its author may.', statusCode: 204 })
  @Authenticated()
  @ApiResponse(403, GenericErrorModel)
  @ApiResponse(404, GenericErrorModel)
  async remove(@Param('slug') slug: string, @User() user: Account): Promise<void> {
    await this.conduit.deleteArticle(slug, user.id);
  }

  @Post('/{slug}/favorite', { name: 'favorite', summary: 'Favorite an article', description: 'Adds the article to your favorites.', responses: { 200: SingleArticleResponse } })
  @Authenticated()
  @ApiResponse(404, GenericErrorModel)
  async favorite(@Param('slug') slug: string, @User() user: Account): Promise<SingleArticleResponse> {
    return { article: await this.conduit.favorite(slug, user.id, true) };
  }

  @Delete('/{slug}/favorite', { name: 'unfavorite', summary: 'Unfavorite an article', description: 'Removes the article from your favorites.', responses: { 200: SingleArticleResponse } })
  @Authenticated()
  @ApiResponse(404, GenericErrorModel)
  async unfavorite(@Param('slug') slug: string, @User() user: Account): Promise<SingleArticleResponse> {
    return { article: await this.conduit.favorite(slug, user.id, false) };
  }
}
