/**
 * `pageHeaders`: every HTML response Tern writes (a rendered page, an error page, a form shown
 * again, `res.html()`) carries `X-Content-Type-Options: nosniff` and anti-framing headers by
 * default; the app can change or drop them, and a header it set itself is kept.
 */
import { IsEmail } from 'class-validator';
import { PAGE_HANDLER, setTemplateRenderer, TernApp, type Handler } from '@tern/core';

class Signup {
  @IsEmail() email: string;
}

const BROWSER = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';

beforeAll(() => setTemplateRenderer((name, context) => `<template ${name}>${JSON.stringify(context)}`));
afterAll(() => setTemplateRenderer(undefined));

function site(options: ConstructorParameters<typeof TernApp>[0] = {}): TernApp {
  const app = new TernApp({ logger: false, errorPages: { default: 'error.html' }, ...options });
  const page: Handler = Object.assign(async (_req: unknown, res: { render(t: string, c: object): unknown }) => res.render('home.html', {}), { [PAGE_HANDLER]: true }) as unknown as Handler;
  app.get('/', page);
  app.get('/raw', async (_req, res) => res.html('<p>hi</p>'));
  app.get('/api', async () => ({ ok: true }));
  app.get('/own-policy', async (_req, res) => res.setHeader('Content-Security-Policy', "default-src 'self'").render('home.html', {}));
  app.post('/signup', { requestModel: Signup, consumes: ['application/x-www-form-urlencoded'], formTemplate: 'signup.html' }, async () => ({ ok: true }));
  return app;
}

function security(headers: Record<string, unknown>) {
  return { nosniff: headers['x-content-type-options'], csp: headers['content-security-policy'], xfo: headers['x-frame-options'] };
}

describe('pageHeaders', () => {
  it('puts nosniff and anti-framing on pages, error pages, re-rendered forms and res.html() by default', async () => {
    const app = site();
    const answers = [
      await app.inject('/'),
      await app.inject('/raw'),
      await app.inject({ url: '/missing', headers: { accept: BROWSER } }),
      await app.inject({ method: 'POST', url: '/signup', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=nope' }),
    ];
    expect(answers.map((a) => [a.statusCode, String(a.headers['content-type']).split(';')[0]])).toEqual([
      [200, 'text/html'],
      [200, 'text/html'],
      [404, 'text/html'],
      [422, 'text/html'],
    ]);
    for (const answer of answers) expect(security(answer.headers)).toEqual({ nosniff: 'nosniff', csp: "frame-ancestors 'none'", xfo: 'DENY' });
    // JSON answers are not pages.
    expect(security((await app.inject('/api')).headers)).toEqual({ nosniff: undefined, csp: undefined, xfo: undefined });
    // A policy the app set itself is kept.
    expect(security((await app.inject('/own-policy')).headers)).toEqual({ nosniff: 'nosniff', csp: "default-src 'self'", xfo: 'DENY' });
  });

  it('is configurable: frame ancestors, nosniff, or nothing', async () => {
    expect(security((await site({ pageHeaders: { frameAncestors: ["'self'"] } }).inject('/')).headers)).toEqual({ nosniff: 'nosniff', csp: "frame-ancestors 'self'", xfo: 'SAMEORIGIN' });
    const portal = site({ pageHeaders: { frameAncestors: ["'self'", 'https://portal.example'], nosniff: false } });
    expect(security((await portal.inject('/')).headers)).toEqual({ nosniff: undefined, csp: "frame-ancestors 'self' https://portal.example", xfo: undefined });
    expect(security((await site({ pageHeaders: false }).inject('/')).headers)).toEqual({ nosniff: undefined, csp: undefined, xfo: undefined });
    expect(() => site({ pageHeaders: { frameAncestors: ["'none'; script-src *"] } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => site({ pageHeaders: { frameAncestors: [] } })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
  });
});
