import { MakeConfig, TernApp } from '@tern/core';

function cookieHeader(setCookie: unknown): string {
  return ([] as string[]).concat(setCookie as string[]).map((c) => c.split(';')[0]).join('; ');
}

describe('flash messages', () => {
  function app(secret = 'a-secret-of-sixteen-chars'): TernApp {
    const app = new TernApp({ config: new MakeConfig({ secret }) });
    app.post('/contact', async (req, res) => res.flash('success', 'Thanks, Ada!').flash('info', 'We reply within a day.').redirect('/thanks', 303));
    app.get('/thanks', async (req) => ({ flashes: req.flashes }));
    app.get('/elsewhere', async () => ({ ok: true }));
    return app;
  }

  it('shows the messages on the next page once, then clears them', async () => {
    const site = app();
    const posted = await site.inject({ method: 'POST', url: '/contact' });
    expect(posted.statusCode).toBe(303);
    const flashCookie = posted.cookies.find((c) => c.name === 'tern_flash');
    expect(flashCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    // A page that does not read them leaves them for later.
    const other = await site.inject({ url: '/elsewhere', headers: { cookie: cookieHeader(posted.headers['set-cookie']) } });
    expect(other.headers['set-cookie']).toBeUndefined();

    const thanks = await site.inject({ url: '/thanks', headers: { cookie: cookieHeader(posted.headers['set-cookie']) } });
    expect(thanks.json().flashes).toEqual([
      { type: 'success', message: 'Thanks, Ada!' },
      { type: 'info', message: 'We reply within a day.' },
    ]);
    expect(thanks.cookies.find((c) => c.name === 'tern_flash')).toMatchObject({ value: '', maxAge: 0 });
    expect((await site.inject('/thanks')).json().flashes).toEqual([]);
  });

  it('reads them on a route with its own body limits too (its limits keep the app secret)', async () => {
    const site = app();
    site.get('/thanks-large', { bodyLimit: 8 * 1024 * 1024, multipart: { limits: { files: 1 } } }, async (req) => ({ flashes: req.flashes }));
    const posted = await site.inject({ method: 'POST', url: '/contact' });
    const thanks = await site.inject({ url: '/thanks-large', headers: { cookie: cookieHeader(posted.headers['set-cookie']) } });
    expect(thanks.json().flashes).toEqual([
      { type: 'success', message: 'Thanks, Ada!' },
      { type: 'info', message: 'We reply within a day.' },
    ]);
  });

  it('ignores a flash cookie that was altered or signed with another secret', async () => {
    const posted = await app().inject({ method: 'POST', url: '/contact' });
    const value = posted.cookies.find((c) => c.name === 'tern_flash')?.value as string;
    const [payload, signature] = value.split('.');
    const forged = Buffer.from(JSON.stringify([{ type: 'success', message: 'You won a prize' }])).toString('base64url');
    for (const cookie of [`tern_flash=${forged}.${signature}`, `tern_flash=${payload}`, `tern_flash=garbage`]) {
      expect((await app().inject({ url: '/thanks', headers: { cookie } })).json().flashes).toEqual([]);
    }
    const otherApp = app('another-secret-of-16-chars');
    expect((await otherApp.inject({ url: '/thanks', headers: { cookie: `tern_flash=${value}` } })).json().flashes).toEqual([]);
  });

  it('keeps unread messages through another redirect', async () => {
    const site = app();
    site.post('/again', async (req, res) => res.flash('warning', 'Second').redirect('/thanks', 303));
    const first = await site.inject({ method: 'POST', url: '/contact' });
    const second = await site.inject({ method: 'POST', url: '/again', headers: { cookie: cookieHeader(first.headers['set-cookie']) } });
    const thanks = await site.inject({ url: '/thanks', headers: { cookie: cookieHeader(second.headers['set-cookie']) } });
    expect(thanks.json().flashes.map((f: { message: string }) => f.message)).toEqual(['Thanks, Ada!', 'We reply within a day.', 'Second']);
  });

  it('cannot be replayed once its signed expiry (10 minutes) has passed, whatever the browser keeps', async () => {
    const site = app();
    const posted = await site.inject({ method: 'POST', url: '/contact' });
    const cookie = cookieHeader(posted.headers['set-cookie']);
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(now + 9 * 60_000);
      expect((await site.inject({ url: '/thanks', headers: { cookie } })).json().flashes).toHaveLength(2);
      // The same cookie sent again later (copied from a request): nothing to show.
      clock.mockReturnValue(now + 11 * 60_000);
      const replayed = await site.inject({ url: '/thanks', headers: { cookie } });
      expect(replayed.json().flashes).toEqual([]);
      expect(replayed.cookies.find((c) => c.name === 'tern_flash')).toMatchObject({ value: '', maxAge: 0 });
    } finally {
      clock.mockRestore();
    }
  });

  it('refuses a secret that is too short', () => {
    expect(() => new MakeConfig({ secret: 'short' })).toThrow(/secret/);
  });
});
