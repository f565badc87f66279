import { buildApp } from './app';

describe('users example (routers)', () => {
  it('serves one router under two versions with dotted names', async () => {
    const app = buildApp();
    const v1 = await app.inject('/api/v1/users/1');
    expect(v1.json()).toMatchObject({ id: 1, name: 'Ada Lovelace' });
    expect(v1.headers.deprecation).toBe('true');
    const v2 = await app.inject('/api/v2/users/1');
    expect(v2.headers.deprecation).toBeUndefined();
    expect(app.urlFor('v1.users.get', { id: 2 })).toBe('/api/v1/users/2');
    expect(app.urlFor('v2.users.list')).toBe('/api/v2/users');
  });

  it('uses a custom converter for a path segment', async () => {
    const app = buildApp();
    expect((await app.inject('/api/v2/greeting/FR')).json()).toEqual({ greeting: 'Bonjour' });
    expect((await app.inject('/api/v2/greeting/french')).statusCode).toBe(422);
    expect(app.urlFor('v2.greeting', { lang: 'EN' })).toBe('/api/v2/greeting/en');
  });
});
