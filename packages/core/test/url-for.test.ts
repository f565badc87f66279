import { Router, TernApp, UrlGenerationError } from '@tern/core';
import { URLPath } from '@tern/core/structs';

function app() {
  const a = new TernApp();
  a.get('/users/{id:int}', { name: 'user' }, async () => ({}));
  a.get('/files/{rest:path}', { name: 'file' }, async () => ({}));
  a.get('/things/{key}', { name: 'thing' }, async () => ({}));
  a.get('/objects/{id:uuid}', { name: 'object' }, async () => ({}));
  const users = new Router({ prefix: '/users', name: 'users' });
  users.get('/{id:int}/posts', { name: 'posts' }, async () => ({}));
  const v1 = new Router({ prefix: '/api/v1', name: 'v1' });
  v1.mountRouter(users);
  a.mountRouter(v1);
  return a;
}

describe('urlFor', () => {
  it('substitutes path params through converters and puts the rest in the query', async () => {
    const a = app();
    await a.ready();
    expect(a.urlFor('user', { id: 7 })).toBe('/users/7');
    expect(a.urlFor('user', { id: 7, expand: 'posts', tag: ['a', 'b'] })).toBe('/users/7?expand=posts&tag=a&tag=b');
    expect(a.urlFor('file', { rest: 'docs/read me.md' })).toBe('/files/docs/read%20me.md');
    expect(a.urlFor('thing', { key: 'a&b?c' })).toBe('/things/a%26b%3Fc');
    expect(a.urlFor('object', { id: '123E4567E89B12D3A456426614174000' })).toBe('/objects/123e4567-e89b-12d3-a456-426614174000');
  });

  it('addresses routes in named routers with dotted names', async () => {
    const a = app();
    expect(a.urlFor('v1.users.posts', { id: 3 })).toBe('/api/v1/users/3/posts');
  });

  it('produces paths the app serves', async () => {
    const a = new TernApp();
    a.get('/things/{key}', { name: 'thing' }, async (req, res, { key }) => ({ key }));
    const url = a.urlFor('thing', { key: 'a b?c' });
    expect((await a.inject(url)).json()).toEqual({ key: 'a b?c' });
  });

  it('throws saying which name or parameter is wrong', async () => {
    const a = app();
    await a.ready();
    expect(() => a.urlFor('nope')).toThrow(new UrlGenerationError("urlFor: no route is named 'nope'."));
    expect(() => a.urlFor('user')).toThrow(/missing path parameter 'id'/);
    expect(() => a.urlFor('user', { id: -1 })).toThrow(/parameter 'id'/);
    expect(() => a.urlFor('user', { id: 'abc' })).toThrow(/parameter 'id'/);
    // `str` is "any string without slashes": the app would answer such a URL with a 422.
    expect(() => a.urlFor('thing', { key: 'a/b' })).toThrow(/not a valid str/);
    expect(() => a.urlFor('file', { rest: 'a/../etc' })).toThrow(/'\.' or '\.\.' path segment/);
  });
});

describe('URLPath', () => {
  it('appends a query string and returns a new URLPath', () => {
    const base = new URLPath('/search');
    const withQuery = base.addQueryParams({ q: 'tern', page: 2 });
    expect(String(withQuery)).toBe('/search?q=tern&page=2');
    expect(String(base)).toBe('/search');
    expect(String(withQuery.addQueryParams({ sort: 'new', skip: undefined }))).toBe('/search?q=tern&page=2&sort=new');
    expect(String(new URLPath('/s').addQueryParams({ q: 'a&b=c' }))).toBe('/s?q=a%26b%3Dc');
  });
});
