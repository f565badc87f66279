/**
 * `session()` as a browser and a store see it: the cookie carries only a signed random id, data
 * is in the app's store, written back only when changed; regenerate/destroy do what sign-in and
 * sign-out need; a tampered or unknown id starts empty; flashes wait in the session (no flash
 * cookie); csrf() binds its token to the session.
 */
import { csrf, MakeConfig, memoryStore, session, TernApp, type InjectResponse, type TernStore } from '@tern/core';

const SECRET = 'a-session-secret-of-32-characters!!';
const FORM = 'application/x-www-form-urlencoded';

/** A memory store that also records the keys written and deleted (the real store underneath). */
function recordingStore(): TernStore & { writes: string[]; deletes: string[]; inner: TernStore } {
  const inner = memoryStore();
  const writes: string[] = [];
  const deletes: string[] = [];
  return {
    ...inner,
    inner,
    writes,
    deletes,
    set: (key, value, ttl) => (writes.push(key), inner.set(key, value, ttl)),
    delete: (key) => (deletes.push(key), inner.delete(key)),
  };
}

function siteWith(store: TernStore = memoryStore()): TernApp {
  const app = new TernApp({ store, logger: false, config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
  app.addMiddleware(session({ secret: SECRET, maxAge: 3_600_000 }));
  app.get('/me', async (req) => ({ id: req.session.id, user: req.session.get('user') ?? null, cart: req.session.get('cart') ?? [] }));
  app.post('/login', async (req, res) => {
    const before = req.session.id;
    await req.session.regenerate();
    req.session.set('user', { name: 'Ada' });
    return res.json({ before, after: req.session.id });
  });
  app.post('/cart', async (req) => {
    const cart = req.session.get<string[]>('cart') ?? [];
    req.session.set('cart', [...cart, 'tea']);
    return { items: cart.length + 1 };
  });
  app.post('/forget-cart', async (req) => {
    req.session.delete('cart');
    return { ok: true };
  });
  app.post('/logout', async (req) => {
    await req.session.destroy();
    return { ok: true };
  });
  return app;
}

function sessionCookie(response: InjectResponse, name = 'tern_session') {
  return response.cookies.find((c) => c.name === name);
}

/** The `cookie` header a browser would send after `response`. */
function jar(response: InjectResponse, name = 'tern_session'): string {
  const cookie = sessionCookie(response, name);
  if (!cookie) throw new Error(`no ${name} cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
  return `${name}=${cookie.value}`;
}

describe('session()', () => {
  it('keeps data in the store under a signed random id; the cookie is HttpOnly, SameSite=Lax, rolling', async () => {
    const store = recordingStore();
    const site = siteWith(store);
    const first = await site.inject({ method: 'POST', url: '/cart' });
    const cookie = sessionCookie(first);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/', maxAge: 3600 });
    expect(cookie?.secure).toBeFalsy();
    // The cookie holds the id and its signature, nothing of the data.
    expect(cookie?.value).toMatch(/^[\w-]{43}\.[\w-]{43}$/);
    expect(decodeURIComponent(cookie?.value ?? '')).not.toContain('tea');
    const id = (cookie?.value ?? '').split('.')[0];
    expect(JSON.parse((await store.inner.get(`sess:${id}`)) ?? '{}')).toMatchObject({ d: { cart: ['tea'] } });
    const second = await site.inject({ method: 'POST', url: '/cart', headers: { cookie: jar(first) } });
    expect(second.json()).toEqual({ items: 2 });
    expect((await site.inject({ url: '/me', headers: { cookie: jar(first) } })).json()).toMatchObject({ id, cart: ['tea', 'tea'] });
  });

  it('writes nothing and sets no cookie for a session nobody changed', async () => {
    const store = recordingStore();
    const site = siteWith(store);
    const anonymous = await site.inject('/me');
    expect(anonymous.headers['set-cookie']).toBeUndefined();
    const started = await site.inject({ method: 'POST', url: '/cart' });
    const writes = store.writes.length;
    const reads = await site.inject({ url: '/me', headers: { cookie: jar(started) } });
    expect(reads.json().cart).toEqual(['tea']);
    expect(store.writes).toHaveLength(writes);
    expect(reads.headers['set-cookie']).toBeUndefined();
  });

  it('starts an empty session for a tampered, forged or unknown id, never adopting it', async () => {
    const site = siteWith();
    const real = await site.inject({ method: 'POST', url: '/cart' });
    const [id, signature] = (sessionCookie(real)?.value ?? '').split('.');
    const attempts = [`${id}.${'A'.repeat(43)}`, `${'B'.repeat(43)}.${signature}`, 'not-a-session', `${id}`];
    for (const value of attempts) {
      const answer = await site.inject({ url: '/me', headers: { cookie: `tern_session=${value}` } });
      expect(answer.json()).toMatchObject({ cart: [], user: null });
      expect(answer.json().id).not.toBe(id);
    }
    // A well-signed id the store does not know (expired, or from another secret's era) is not reused.
    const other = siteWith();
    const unknown = await other.inject({ method: 'POST', url: '/cart', headers: { cookie: jar(real) } });
    expect(sessionCookie(unknown)?.value.split('.')[0]).not.toBe(id);
  });

  it('regenerate() gives a new id with the data kept and kills the old id; destroy() removes it all', async () => {
    const store = recordingStore();
    const site = siteWith(store);
    const visit = await site.inject({ method: 'POST', url: '/cart' });
    const login = await site.inject({ method: 'POST', url: '/login', headers: { cookie: jar(visit) } });
    const { before, after } = login.json<{ before: string; after: string }>();
    expect(after).not.toBe(before);
    expect(sessionCookie(login)?.value.split('.')[0]).toBe(after);
    expect(await store.inner.get(`sess:${before}`)).toBeUndefined();
    const me = await site.inject({ url: '/me', headers: { cookie: jar(login) } });
    expect(me.json()).toEqual({ id: after, user: { name: 'Ada' }, cart: ['tea'] });
    // The pre-login cookie (say, planted by an attacker) no longer reaches the session.
    expect((await site.inject({ url: '/me', headers: { cookie: jar(visit) } })).json()).toMatchObject({ user: null, cart: [] });

    const logout = await site.inject({ method: 'POST', url: '/logout', headers: { cookie: jar(login) } });
    expect(sessionCookie(logout)).toMatchObject({ value: '', maxAge: 0 });
    expect(await store.inner.get(`sess:${after}`)).toBeUndefined();
    expect((await site.inject({ url: '/me', headers: { cookie: jar(login) } })).json()).toMatchObject({ user: null, cart: [] });
  });

  it("reads only the session's own keys, a stored __proto__ key as data, on the memory store's direct path too", async () => {
    for (const store of [memoryStore(), recordingStore()]) {
      const site = siteWith(store);
      site.get('/keys', async (req) => ({
        constructor: req.session.get('constructor') ?? null,
        toString: req.session.get('toString') ?? null,
        proto: req.session.get('__proto__') ?? null,
        user: req.session.get('user') ?? null,
        polluted: ({} as { admin?: boolean }).admin ?? null,
      }));
      const visit = await site.inject({ method: 'POST', url: '/cart' });
      const id = (sessionCookie(visit)?.value ?? '').split('.')[0];
      await store.set(`sess:${id}`, '{"d":{"__proto__":{"admin":true},"user":"ada"},"t":' + Date.now() + '}', 3_600_000);
      const keys = await site.inject({ url: '/keys', headers: { cookie: jar(visit) } });
      expect(keys.json()).toEqual({ constructor: null, toString: null, proto: { admin: true }, user: 'ada', polluted: null });
      // A read-only request wrote nothing back; a change keeps the odd key as data.
      expect(sessionCookie(keys)).toBeUndefined();
      await site.inject({ method: 'POST', url: '/cart', headers: { cookie: jar(visit) } });
      expect(JSON.parse((await store.get(`sess:${id}`)) as string).d).toEqual(JSON.parse('{"__proto__":{"admin":true},"user":"ada","cart":["tea"]}'));
    }
  });

  it('never lets a change to a value read, but not set, reach a later request', async () => {
    const site = siteWith();
    site.post('/peek', async (req) => {
      (req.session.get<string[]>('cart') as string[]).push('leaked');
      return { user: req.session.get('user') ?? null };
    });
    site.post('/name', async (req) => {
      req.session.set('user', 'ada');
      return { ok: true };
    });
    const visit = await site.inject({ method: 'POST', url: '/cart' });
    const cookie = jar(visit);
    for (let i = 0; i < 3; i++) await site.inject({ method: 'POST', url: '/peek', headers: { cookie } });
    expect((await site.inject({ url: '/me', headers: { cookie } })).json()).toMatchObject({ cart: ['tea'] });
    // Data of primitives only (shared between requests once parsed), read many times, then
    // changed: every request reads what was stored last.
    await site.inject({ method: 'POST', url: '/name', headers: { cookie } });
    await site.inject({ method: 'POST', url: '/forget-cart', headers: { cookie } });
    for (let i = 0; i < 3; i++) expect((await site.inject({ url: '/me', headers: { cookie } })).json()).toMatchObject({ user: 'ada', cart: [] });
    await site.inject({ method: 'POST', url: '/cart', headers: { cookie } });
    expect((await site.inject({ url: '/me', headers: { cookie } })).json()).toMatchObject({ user: 'ada', cart: ['tea'] });
  });

  it('deletes the stored session and clears the cookie when its last key is deleted', async () => {
    const store = recordingStore();
    const site = siteWith(store);
    const visit = await site.inject({ method: 'POST', url: '/cart' });
    const id = sessionCookie(visit)?.value.split('.')[0];
    const emptied = await site.inject({ method: 'POST', url: '/forget-cart', headers: { cookie: jar(visit) } });
    expect(sessionCookie(emptied)).toMatchObject({ value: '', maxAge: 0 });
    expect(store.deletes).toContain(`sess:${id}`);
  });

  it('uses the __Host- prefix and Secure over HTTPS', async () => {
    const app = new TernApp({ logger: false, trustProxy: 'loopback' });
    app.addMiddleware(session({ secret: SECRET }));
    app.post('/x', async (req) => (req.session.set('a', 1), 'ok'));
    app.get('/x', async (req) => ({ a: req.session.get('a') ?? null }));
    const https = { 'x-forwarded-proto': 'https' };
    const answer = await app.inject({ method: 'POST', url: '/x', headers: https });
    expect(sessionCookie(answer, '__Host-tern_session')).toMatchObject({ secure: true, httpOnly: true, path: '/', sameSite: 'Lax' });
    expect(answer.cookies.find((c) => c.name === '__Host-tern_session')?.domain).toBeUndefined();
    expect((await app.inject({ url: '/x', headers: { ...https, cookie: jar(answer, '__Host-tern_session') } })).json()).toEqual({ a: 1 });
    // The plain-HTTP name is not read over HTTPS.
    const plain = `tern_session=${sessionCookie(answer, '__Host-tern_session')?.value}`;
    expect((await app.inject({ url: '/x', headers: { ...https, cookie: plain } })).json()).toEqual({ a: null });
  });

  it("honours cookieName and refuses a short secret, a bad maxAge or name", () => {
    expect(() => session({ secret: 'short' })).toThrow(/at least 32 characters/);
    expect(() => session({ secret: SECRET, maxAge: 10 })).toThrow(/maxAge must be a whole number of milliseconds/);
    expect(() => session({ secret: SECRET, cookieName: 'bad name;' })).toThrow(/cookieName/);
  });

  it('says how to fix req.session read without the middleware (500, TERN_NO_SESSION logged)', async () => {
    const logged: unknown[][] = [];
    const app = new TernApp({ logger: { error: (...args: unknown[]) => logged.push(args) } });
    app.get('/x', async (req) => ({ id: req.session.id }));
    expect((await app.inject('/x')).statusCode).toBe(500);
    expect(logged[0][1]).toMatchObject({ code: 'TERN_NO_SESSION', message: expect.stringContaining('app.addMiddleware(session({ secret }))') });
  });

  it('answers 503 when the store fails, and logs it', async () => {
    const failing: TernStore = { ...memoryStore(), get: () => Promise.reject(new Error('store down')), set: () => Promise.reject(new Error('store down')) };
    const logged: unknown[][] = [];
    const app = new TernApp({ store: failing, logger: { error: (...args: unknown[]) => logged.push(args) } });
    app.addMiddleware(session({ secret: SECRET }));
    app.post('/x', async (req) => (req.session.set('a', 1), 'ok'));
    const write = await app.inject({ method: 'POST', url: '/x' });
    expect([write.statusCode, write.json().code]).toEqual([503, 'TERN_STORE_UNAVAILABLE']);
    const signed = `tern_session=${'C'.repeat(43)}.x`;
    expect((await app.inject({ method: 'POST', url: '/x', headers: { cookie: signed } })).statusCode).toBe(503);
    expect(String(logged[0][0])).toContain('the store, for session');
  });

  describe('with flash messages', () => {
    it('keeps them in the session, not in a cookie, shown once', async () => {
      const store = recordingStore();
      const site = siteWith(store);
      site.post('/contact', async (req, res) => res.flash('success', 'Thanks!').redirect('/thanks', 303));
      site.get('/thanks', async (req) => ({ flashes: req.flashes }));
      const visit = await site.inject({ method: 'POST', url: '/cart' });
      const cookie = jar(visit);
      const posted = await site.inject({ method: 'POST', url: '/contact', headers: { cookie } });
      expect(posted.statusCode).toBe(303);
      expect(posted.cookies.map((c) => c.name)).not.toContain('tern_flash');
      const shown = await site.inject({ url: '/thanks', headers: { cookie } });
      expect(shown.json().flashes).toEqual([{ type: 'success', message: 'Thanks!' }]);
      expect(shown.cookies.map((c) => c.name)).not.toContain('tern_flash');
      expect((await site.inject({ url: '/thanks', headers: { cookie } })).json().flashes).toEqual([]);
    });

    it('keeps unread ones for a later page, across a redirect chain', async () => {
      const site = siteWith();
      site.post('/first', async (req, res) => res.flash('info', 'One').redirect('/second', 303));
      site.get('/second', async (req, res) => res.flash('info', 'Two').redirect('/thanks', 303));
      site.get('/thanks', async (req) => ({ flashes: req.flashes }));
      const posted = await site.inject({ method: 'POST', url: '/first' });
      const cookie = jar(posted);
      await site.inject({ url: '/second', headers: { cookie } });
      expect((await site.inject({ url: '/thanks', headers: { cookie } })).json().flashes.map((f: { message: string }) => f.message)).toEqual(['One', 'Two']);
    });
  });

  describe('with csrf()', () => {
    function formSite(): TernApp {
      const app = new TernApp({ logger: false, config: new MakeConfig({ secret: 'sixteen-or-more-characters' }) });
      app.addMiddleware(session({ secret: SECRET }));
      app.addMiddleware(csrf());
      app.get('/form', async (req, res) => ({ token: res.locals.csrfToken }));
      app.post('/form', async (req) => ({ got: (await req.form()).name }));
      return app;
    }

    async function visit(site: TernApp): Promise<{ token: string; cookie: string }> {
      const page = await site.inject('/form');
      expect(page.cookies.map((c) => c.name)).toEqual(['tern_session']);
      return { token: page.json().token, cookie: jar(page) };
    }

    it("accepts the session's own token and refuses an attacker's own cookie-and-token pair", async () => {
      const site = formSite();
      const victim = await visit(site);
      const attacker = await visit(site);
      const post = (cookie: string, token: string) =>
        site.inject({ method: 'POST', url: '/form', headers: { cookie, 'content-type': FORM }, payload: `name=Ada&_csrf=${encodeURIComponent(token)}` });
      expect((await post(victim.cookie, victim.token)).json()).toEqual({ got: 'Ada' });
      // The attacker plants a token that is valid for their own session: not for the victim's.
      const planted = await post(victim.cookie, attacker.token);
      expect([planted.statusCode, planted.json().code]).toEqual([403, 'TERN_CSRF_INVALID']);
      // A signed-cookie-mode pair means nothing either.
      const cookieMode = await post(`${victim.cookie}; tern_csrf=${attacker.token}`, attacker.token);
      expect(cookieMode.statusCode).toBe(403);
      // No session at all: refused.
      expect((await post('', victim.token)).statusCode).toBe(403);
    });

    it('keeps the token for the session, and gives a new one after regenerate() (sign-in)', async () => {
      const site = formSite();
      site.post('/login', async (req) => {
        await req.session.regenerate();
        return { ok: true };
      });
      const { token, cookie } = await visit(site);
      expect((await site.inject({ url: '/form', headers: { cookie } })).json().token).toBe(token);
      const login = await site.inject({ method: 'POST', url: '/login', headers: { cookie, 'x-csrf-token': token } });
      expect(login.statusCode).toBe(200);
      const after = jar(login);
      const fresh = (await site.inject({ url: '/form', headers: { cookie: after } })).json().token;
      expect(fresh).not.toBe(token);
      const stale = await site.inject({ method: 'POST', url: '/form', headers: { cookie: after, 'content-type': FORM }, payload: `_csrf=${encodeURIComponent(token)}` });
      expect(stale.statusCode).toBe(403);
    });

    it('creates no session for requests that never ask for a token', async () => {
      const site = formSite();
      site.get('/api/ping', async () => ({ pong: true }));
      expect((await site.inject('/api/ping')).headers['set-cookie']).toBeUndefined();
    });
  });
});
