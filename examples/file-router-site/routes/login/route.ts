// GET /login shows the sign-in form; POST /login checks it. A good password starts a fresh
// session (regenerate(): an id planted before sign-in is worthless) holding the author's name
// and roles (read by routes/admin/_middleware.ts);
// a bad one shows the form again. Five tries a minute per address, across every process
// sharing the app's store.
import type { TernRequest, TernResponse } from '@tern/core';
import { markAsRoute, render } from '@tern/file-router';
import { checkPassword } from '../../users';

export const get = markAsRoute({ name: 'login', excludeFromSchema: true }, render('login.html', async () => ({ login: '', failed: false })));

export const post = markAsRoute(
  { name: 'login.check', excludeFromSchema: true, consumes: ['application/x-www-form-urlencoded'], rateLimit: { limit: 5, window: 60_000 } },
  async (req: TernRequest, res: TernResponse) => {
    const { login = '', password = '' } = await req.form();
    const author = typeof login === 'string' && typeof password === 'string' ? checkPassword(login, password) : undefined;
    if (author === undefined) return res.render('login.html', { login: typeof login === 'string' ? login : '', failed: true }, 401);
    await req.session.regenerate();
    req.session.set('author', author.name);
    req.session.set('roles', author.roles);
    res.flash('success', `Signed in as ${author.name}.`);
    return res.redirect('/', 303);
  },
);
