import { Controller, Get } from '@tern/core';
import type { Conduit } from '../conduit';
import { TagsResponse } from '../dto';

/** The tags in use, most used first (`/tags`). */
@Controller('/tags', { tags: ['Tags'], name: 'tags' })
export class TagsController {
  constructor(private readonly conduit: Conduit) {}

  @Get('/', { name: 'list', summary: 'Get tags', description: 'Tags in use, most used first (at most 100).', responses: { 200: TagsResponse }, security: [] })
  async list(): Promise<TagsResponse> {
    return { tags: await this.conduit.tags() };
  }
}
