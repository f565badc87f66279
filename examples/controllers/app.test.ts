/**
 * Testing controllers through the whole app: `app.inject()` sends a request in memory (no
 * socket) and returns what a client would receive.
 */
import { validate } from '@readme/openapi-parser';
import { buildApp } from './app';
import { Store } from './store';

const ada = { authorization: 'Bearer ada-token' };
const grace = { authorization: 'Bearer grace-token' };

describe('controllers example', () => {
  describe('v1 users', () => {
    it('lists users and gets one by id', async () => {
      const app = buildApp();
      expect((await app.inject('/api/v1/users')).json()).toEqual([
        { id: 1, name: 'Ada Lovelace' },
        { id: 2, name: 'Grace Hopper' },
      ]);
      expect((await app.inject('/api/v1/users/2')).json()).toEqual({ id: 2, name: 'Grace Hopper' });
    });

    it('answers 404 for an unknown user and 422 for an id that is not an integer', async () => {
      const app = buildApp();
      expect((await app.inject('/api/v1/users/99')).json()).toMatchObject({ status: 404, detail: 'No user 99.' });
      expect((await app.inject('/api/v1/users/ada')).statusCode).toBe(422);
    });

    it('registers a user only with a bearer token and a valid body', async () => {
      const app = buildApp();
      const payload = { name: 'Katherine Johnson', email: 'katherine@example.com' };
      const anonymous = await app.inject({ method: 'POST', url: '/api/v1/users', payload });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers['www-authenticate']).toBe('Bearer');

      const created = await app.inject({ method: 'POST', url: '/api/v1/users', headers: ada, payload: { ...payload, admin: true } });
      expect([created.statusCode, created.json()]).toEqual([201, { id: 3, name: 'Katherine Johnson' }]);

      const again = await app.inject({ method: 'POST', url: '/api/v1/users', headers: ada, payload });
      expect(again.statusCode).toBe(409);

      const invalid = await app.inject({ method: 'POST', url: '/api/v1/users', headers: ada, payload: { name: '', email: 'nope' } });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual([
        { path: 'name', message: 'name must be longer than or equal to 1 characters' },
        { path: 'email', message: 'email must be an email' },
      ]);
    });
  });

  describe('v1 posts', () => {
    it('lists posts publicly, filtered by typed query parameters', async () => {
      const app = buildApp();
      const byGrace = (await app.inject('/api/v1/posts?authorId=2')).json();
      expect(byGrace.map((p: { title: string }) => p.title)).toEqual(['Finding the first bug', 'Compilers for everyone']);
      expect((await app.inject('/api/v1/posts?tag=history')).json()).toHaveLength(1);
      const bad = await app.inject('/api/v1/posts?authorId=grace');
      expect(bad.statusCode).toBe(422);
      expect(bad.json().errors).toEqual([{ path: 'authorId', message: "authorId must be a number, got 'grace'" }]);
    });

    it('writes a post as the signed-in user', async () => {
      const app = buildApp();
      const response = await app.inject({ method: 'POST', url: '/api/v1/posts', headers: grace, payload: { title: 'COBOL', body: 'Business-oriented.' } });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ id: 4, authorId: 2, title: 'COBOL', tags: [] });
      expect((await app.inject({ method: 'POST', url: '/api/v1/posts', payload: { title: 'x', body: 'y' } })).statusCode).toBe(401);
    });

    it('lets only the author edit or delete a post', async () => {
      const app = buildApp();
      const edit = { method: 'PATCH', url: '/api/v1/posts/1', payload: { title: 'Notes, revised' } };
      expect((await app.inject({ ...edit, headers: grace })).statusCode).toBe(403);
      expect((await app.inject({ ...edit, headers: ada })).json()).toMatchObject({ id: 1, title: 'Notes, revised' });

      expect((await app.inject({ method: 'DELETE', url: '/api/v1/posts/1', headers: grace })).statusCode).toBe(403);
      const deleted = await app.inject({ method: 'DELETE', url: '/api/v1/posts/1', headers: ada });
      expect([deleted.statusCode, deleted.body]).toEqual([204, '']);
      expect((await app.inject('/api/v1/posts/1')).statusCode).toBe(404);
    });

    it('edits with UpdatePostDto: PartialType(CreatePostDto), every rule kept and every field optional', async () => {
      const app = buildApp();
      const edit = (payload: object) => app.inject({ method: 'PATCH', url: '/api/v1/posts/1', headers: ada, payload });
      expect((await edit({ tags: ['notes'] })).json()).toMatchObject({ id: 1, title: 'Notes on the Analytical Engine', tags: ['notes'] });
      const invalid = await edit({ title: '', tags: ['a', 'b', 'c', 'd', 'e', 'f'] });
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors.map((e: { path: string }) => e.path)).toEqual(['title', 'tags']);
      const { schemas } = (await app.inject('/openapi.json')).json().components;
      expect(schemas.UpdatePostDto.required).toBeUndefined();
      expect(schemas.CreateUserDto.properties.name).toMatchObject({ description: 'Shown beside their posts', example: 'Ada Lovelace' });
    });
  });

  describe('v2', () => {
    it('pages and searches users with a validated query object', async () => {
      const app = buildApp();
      const page = (await app.inject('/api/v2/users?page=2&limit=1')).json();
      expect(page).toMatchObject({ page: 2, limit: 1, total: 2, items: [{ id: 2, name: 'Grace Hopper', email: 'grace@example.com', postCount: 2 }] });
      expect((await app.inject('/api/v2/users?search=ada')).json().items.map((u: { name: string }) => u.name)).toEqual(['Ada Lovelace']);
      const invalid = await app.inject('/api/v2/users?limit=500&page=0');
      expect(invalid.statusCode).toBe(422);
      expect(invalid.json().errors).toEqual([
        { path: 'page', message: 'page must not be less than 1' },
        { path: 'limit', message: 'limit must not be greater than 100' },
      ]);
    });

    it('answers /me for the token holder, never cached', async () => {
      const app = buildApp();
      const me = await app.inject({ url: '/api/v2/users/me', headers: ada });
      expect(me.json()).toMatchObject({ id: 1, name: 'Ada Lovelace', postCount: 1 });
      expect(me.headers['cache-control']).toBe('no-store');
      const invalid = await app.inject({ url: '/api/v2/users/me', headers: { authorization: 'Bearer stolen' } });
      expect([invalid.statusCode, invalid.headers['www-authenticate']]).toEqual([401, 'Bearer error="invalid_token"']);
    });

    it('pages posts filtered by author', async () => {
      const app = buildApp();
      expect((await app.inject('/api/v2/posts?authorId=2&limit=1')).json()).toMatchObject({ total: 2, items: [{ title: 'Finding the first bug' }] });
    });
  });

  it('serves data it is given, so each test can start from its own store', async () => {
    const store = new Store();
    store.createUser({ name: 'Only One', email: 'one@example.com' }, 'one-token');
    const app = buildApp({ store });
    expect((await app.inject('/api/v1/users')).json()).toEqual([{ id: 1, name: 'Only One' }]);
    expect((await app.inject({ url: '/api/v2/users/me', headers: { authorization: 'Bearer one-token' } })).json().name).toBe('Only One');
  });

  it('names routes by controller, for urlFor', async () => {
    const app = buildApp();
    await app.ready();
    expect(app.urlFor('v2.users.get', { id: 7 })).toBe('/api/v2/users/7');
    expect(app.urlFor('v1.posts.list', { tag: 'computing' })).toBe('/api/v1/posts?tag=computing');
  });

  it('describes every route in a valid OpenAPI document, with the security each declares', async () => {
    const app = buildApp();
    const document = (await app.inject('/openapi.json')).json();
    expect(await validate(structuredClone(document))).toMatchObject({ valid: true });
    expect(document.paths['/api/v1/posts'].post.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths['/api/v1/posts'].get.security).toEqual([]);
    expect(document.paths['/api/v1/users'].get.security).toBeUndefined();
    expect(document.paths['/api/v2/users'].get.parameters.map((p: { name: string }) => p.name)).toEqual(['page', 'limit', 'search']);
    expect((await app.inject('/docs')).statusCode).toBe(200);
  });
});
