import { bookRoute, buildApp } from './app';

describe('books example (Routes objects)', () => {
  it('matches a lone route without an app', () => {
    expect(bookRoute.match('/books/1', 'GET')).toEqual([bookRoute, { id: 1 }, true]);
    expect(bookRoute.match('/books/one', 'GET')).toEqual([null, null, false]);
  });

  it('lists, reads and validates new books', async () => {
    const app = buildApp();
    expect((await app.inject('/books')).json()).toEqual([{ id: 1, title: 'The Pragmatic Programmer', year: 1999 }]);
    expect((await app.inject('/books/1')).json().title).toBe('The Pragmatic Programmer');
    const bad = await app.inject({ method: 'POST', url: '/books', payload: { title: 'Too early', year: 1000 } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual([{ path: 'year', message: 'year must not be less than 1450' }]);
    const created = await app.inject({ method: 'POST', url: '/books', payload: { title: 'Refactoring', year: 1999, isbn: 'dropped' } });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({ id: 2, title: 'Refactoring', year: 1999 });
  });
});
