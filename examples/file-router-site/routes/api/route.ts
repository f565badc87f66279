// GET /api — where the API's resources are.
import { markAsRoute } from '@tern/file-router';

export const get = markAsRoute({ name: 'api.index', summary: 'API index', description: 'Links to the resources of the API and its documents.', tags: ['api'] }, async () => ({
  name: 'Tern Notes API',
  links: { posts: '/api/posts', openapi: '/openapi.json', docs: '/docs' },
}));
