// GET /api — where the API's resources are.
import { markAsRoute } from '@tern/file-router';

export const get = markAsRoute({ name: 'api.index', summary: 'API index', tags: ['api'] }, async () => ({
  name: 'Tern Notes API',
  links: { posts: '/api/posts', openapi: '/openapi.json', docs: '/docs' },
}));
