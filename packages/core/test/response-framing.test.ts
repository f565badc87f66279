import { TernApp } from '@tern/core';
import { listenOnFreePort, rawGet } from '../../../test-support/raw-http';

/** What goes on the wire for answers whose framing or headers a handler influences. */
describe('response framing', () => {
  const app = new TernApp({ logger: false });
  app.get('/chunked', async (req, res) => res.setHeader('Transfer-Encoding', 'chunked').text('hello'));
  app.get('/redirect/{to:path}', async (req, res, { to }) => res.redirect(`/${to}`));
  app.get('/redirect-encoded', async (req, res) => res.redirect('/search?q=a%20b&tag=%E6%97%A5'));
  app.get('/early-hints', async (req, res) => res.status(103).text('never'));
  let port: number;

  beforeAll(async () => {
    port = await listenOnFreePort(app);
  });
  afterAll(() => app.close());

  it('never sends Transfer-Encoding and Content-Length together (RFC 9112 §6.1)', async () => {
    const wire = await rawGet(port, '/chunked');
    expect(wire).toMatch(/\r\ntransfer-encoding: chunked\r\n/i);
    expect(wire).not.toMatch(/\r\ncontent-length:/i);
    expect(wire).toContain('5\r\nhello\r\n0\r\n\r\n');
  });

  it.each([
    ['/redirect/users/Jos%C3%A9', '/users/Jos%C3%A9'],
    ['/redirect/tags/%E6%97%A5%E6%9C%AC', '/tags/%E6%97%A5%E6%9C%AC'],
  ])('percent-encodes non-ASCII in Location (%s)', async (target, location) => {
    const wire = await rawGet(port, target);
    expect(wire.split(' ')[1]).toBe('302');
    expect(wire).toContain(`\r\nlocation: ${location}\r\n`);
  });

  it('keeps escapes that are already in a Location', async () => {
    const response = await app.inject('/redirect-encoded');
    expect(response.headers.location).toBe('/search?q=a%20b&tag=%E6%97%A5');
  });

  it('refuses a 1xx as a final status: the client gets a 500, not a wait forever', async () => {
    const wire = await rawGet(port, '/early-hints');
    expect(wire.split(' ')[1]).toBe('500');
  });
});

describe('request header and cookie lookups', () => {
  it('find own values only: constructor, __proto__ and toString are ordinary names', async () => {
    const app = new TernApp();
    app.get('/look', async (req) => ({
      header: req.headers.get('constructor') ?? null,
      hasProto: req.headers.has('__proto__'),
      cookie: req.cookies.get('toString') ?? null,
      sent: req.cookies.get('constructor') ?? null,
    }));
    const response = await app.inject({ url: '/look', headers: { cookie: 'constructor=abc' } });
    expect(response.json()).toEqual({ header: null, hasProto: false, cookie: null, sent: 'abc' });
  });
});
