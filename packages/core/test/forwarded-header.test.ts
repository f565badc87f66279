/**
 * `proxyHeaders: 'forwarded'`: `req.ip`, `req.protocol` and `req.host` from the RFC 7239
 * `Forwarded` header of trusted hops, and never from the other family of headers.
 */
import { maxHeaderSize } from 'node:http';
import { TernApp, TernTypeError, type TernAppOptions } from '@tern/core';
import { bodyOf, listenOnFreePort, rawGet } from '../../../test-support/raw-http';

type Seen = { ip: string | null; protocol: string; host: string | null };

function appWith(trustProxy: TernAppOptions['trustProxy'], proxyHeaders: TernAppOptions['proxyHeaders'] = 'forwarded'): TernApp {
  const app = new TernApp({ trustProxy, proxyHeaders, logger: false });
  app.get('/who', async (req) => ({ ip: req.ip ?? null, protocol: req.protocol, host: req.host ?? null }));
  return app;
}

async function who(app: TernApp, remoteAddress: string, headers: Record<string, string | string[]> = {}): Promise<Seen> {
  const response = await app.inject({ url: '/who', remoteAddress, headers: { host: 'app.internal:3000', ...headers } });
  expect(response.statusCode).toBe(200);
  return response.json() as Seen;
}

/** What the app sees of a connection from `peer` when no forwarded value counts. */
const socket = (ip: string | null): Seen => ({ ip, protocol: 'http', host: 'app.internal:3000' });

// client -> 192.168.1.1 (edge) -> 10.0.0.2 (inner) -> app
const app = appWith(['10.0.0.0/8', '192.168.1.1']);

describe("proxyHeaders: 'forwarded' (RFC 7239)", () => {
  it.each<[string, string | string[], Seen]>([
    ['reads one element (RFC 7239 section 4)', 'for=198.51.100.7;proto=https;host=api.example.com', { ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' }],
    ['reads a quoted IPv6 node with a port', 'for="[2001:db8:cafe::17]:4711";proto=https', { ip: '2001:db8:cafe::17', protocol: 'https', host: 'app.internal:3000' }],
    ['reads a quoted IPv6 node', 'For="[2001:db8:cafe::17]"', socket('2001:db8:cafe::17')],
    ['reads a quoted IPv4 node with a port', 'for="198.51.100.7:4711"', socket('198.51.100.7')],
    ['drops an obfuscated port', 'for="198.51.100.7:_abc"', socket('198.51.100.7')],
    ['reads a quoted host with a port', 'for=198.51.100.7;host="api.example.com:8443"', { ip: '198.51.100.7', protocol: 'http', host: 'api.example.com:8443' }],
    ['reads parameter names in any case', 'For=198.51.100.7;PROTO=HTTPS;Host=api.example.com', { ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' }],
    ['allows spaces around elements', 'for=198.51.100.7 ,  for=192.168.1.1', socket('198.51.100.7')],
    [
      'walks a chain of trusted proxies; proto and host come from the element naming the client',
      'for=198.51.100.7;proto=https;host=api.example.com, for=192.168.1.1;proto=http;host=inner.internal',
      { ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' },
    ],
    ['reads several header lines as one list', ['for=198.51.100.7;proto=https', 'for=192.168.1.1;proto=http'], { ip: '198.51.100.7', protocol: 'https', host: 'app.internal:3000' }],
    [
      'ignores elements the client wrote, their proto and host included',
      'for=6.6.6.6;proto=gopher;host=evil.example, for=198.51.100.7;proto=https;host=api.example.com',
      { ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' },
    ],
    ['takes no proto from a client-written element when the proxy gives none', 'for=6.6.6.6;proto=https;host=evil.example, for=198.51.100.7', socket('198.51.100.7')],
    ['walks past a hop in a trusted range to the first untrusted one', 'for=6.6.6.6, for=10.9.9.9', socket('6.6.6.6')],
    ['ignores an invalid proto or host', 'for=198.51.100.7;proto="ht tp";host="a/b"', socket('198.51.100.7')],
    ['takes no proto but http and https', 'for=198.51.100.7;proto=javascript', socket('198.51.100.7')],
    ['ignores a host with @', 'for=198.51.100.7;host="user@evil.example"', socket('198.51.100.7')],
    ['ignores a host with an invalid port (issue 42 item 8)', 'for=198.51.100.7;host="evil.example:99999"', socket('198.51.100.7')],
    ['ignores a host with percent-encoded junk', 'for=198.51.100.7;host="x%0d%0aSet-Cookie:a"', socket('198.51.100.7')],
  ])('%s', async (_name, forwarded, expected) => {
    expect(await who(app, '10.0.0.2', { forwarded })).toEqual(expected);
  });

  it('ignores Forwarded from an untrusted peer', async () => {
    expect(await who(app, '203.0.113.9', { forwarded: 'for=6.6.6.6;proto=https;host=evil.example' })).toEqual(socket('203.0.113.9'));
  });

  it('uses the connection when a trusted peer sends no Forwarded, or an empty one', async () => {
    expect(await who(app, '10.0.0.2')).toEqual(socket('10.0.0.2'));
    expect(await who(app, '10.0.0.2', { forwarded: '  ' })).toEqual(socket('10.0.0.2'));
  });

  it('ignores X-Forwarded-* entirely', async () => {
    const headers = { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };
    expect(await who(app, '10.0.0.2', headers)).toEqual(socket('10.0.0.2'));
    expect(await who(app, '10.0.0.2', { ...headers, forwarded: 'for=198.51.100.7' })).toEqual(socket('198.51.100.7'));
  });

  it("is not read by default ('x-forwarded')", async () => {
    const plain = new TernApp({ trustProxy: ['10.0.0.0/8'], logger: false });
    plain.get('/who', async (req) => ({ ip: req.ip ?? null, protocol: req.protocol, host: req.host ?? null }));
    expect(await who(plain, '10.0.0.2', { forwarded: 'for=6.6.6.6;proto=https;host=evil.example' })).toEqual(socket('10.0.0.2'));
    expect(await who(plain, '10.0.0.2', { forwarded: 'for=6.6.6.6', 'x-forwarded-for': '198.51.100.7' })).toMatchObject({ ip: '198.51.100.7' });
  });

  it('is not read without trustProxy', async () => {
    expect(await who(appWith(undefined), '10.0.0.2', { forwarded: 'for=6.6.6.6;proto=https' })).toEqual(socket('10.0.0.2'));
  });
});

describe('a Forwarded header that does not parse', () => {
  it.each([
    ['a parameter without a value', 'for=198.51.100.7;proto'],
    ['an unclosed quote, swallowing what the proxy appended', 'for="6.6.6.6, for=198.51.100.7'],
    ['an unquoted IPv6 node', 'for=2001:db8::1'],
    ['an unquoted port', 'for=198.51.100.7:4711'],
    ['an empty element', 'for=198.51.100.7,,for=192.168.1.1'],
    ['separators only', ';;,'],
    ['longer than Node accepts', `${'for=192.168.1.1, '.repeat(Math.ceil(maxHeaderSize / 17))}for=198.51.100.7`],
  ])('from a trusted peer gives no client address and the socket protocol and host (%s)', async (_name, forwarded) => {
    // Not the peer's address: a client could then pose as the proxy by breaking the header.
    expect(await who(app, '10.0.0.2', { forwarded })).toEqual(socket(null));
  });

  it('from an untrusted peer is ignored like any other', async () => {
    expect(await who(app, '203.0.113.9', { forwarded: 'for="6.6.6.6' })).toEqual(socket('203.0.113.9'));
  });
});

describe('nodes without an address', () => {
  it.each([
    ['unknown', 'for=unknown;proto=https', { ip: null, protocol: 'https', host: 'app.internal:3000' }],
    ['UNKNOWN, behind a trusted edge', 'for=UNKNOWN, for=192.168.1.1', socket(null)],
    ['an obfuscated node', 'for=_hidden;host=api.example.com', { ip: null, protocol: 'http', host: 'api.example.com' }],
    ['an obfuscated node hiding what is left of it', 'for=6.6.6.6, for="_proxy:_port"', socket(null)],
    ['no for parameter', 'proto=https;host=api.example.com', { ip: null, protocol: 'https', host: 'api.example.com' }],
    ['not an address', 'for=999.1.1.1', socket(null)],
    ['brackets around no IPv6 address', 'for="[not:an:ip]"', socket(null)],
    ['an IPv4 address in brackets', 'for="[198.51.100.7]"', socket(null)],
  ])('end the walk with no client address: %s', async (_name, forwarded, expected) => {
    expect(await who(app, '10.0.0.2', { forwarded })).toEqual(expected);
  });

  it('are never trusted, even with trustProxy: true', async () => {
    expect(await who(appWith(true), '10.0.0.2', { forwarded: 'for=198.51.100.7, for=unknown' })).toEqual(socket(null));
  });
});

describe("proxyHeaders: 'forwarded' with a hop count, true or a function", () => {
  const headers = { forwarded: 'for=6.6.6.6;proto=http;host=evil.example, for=198.51.100.7;proto=https;host=api.example.com' };

  it('trusts exactly that many hops', async () => {
    expect(await who(appWith(1), '203.0.113.9', headers)).toEqual({ ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' });
    expect(await who(appWith(2), '203.0.113.9', headers)).toEqual({ ip: '6.6.6.6', protocol: 'http', host: 'evil.example' });
    expect(await who(appWith(0), '203.0.113.9', headers)).toEqual(socket('203.0.113.9'));
  });

  it('takes the leftmost node with true', async () => {
    expect(await who(appWith(true), '203.0.113.9', headers)).toMatchObject({ ip: '6.6.6.6', protocol: 'http' });
  });

  it('asks a function about each hop, with bare addresses', async () => {
    const asked: Array<[string, number]> = [];
    const fn = appWith((address, hop) => {
      asked.push([address, hop]);
      return address.startsWith('10.') || address === '2001:db8::1';
    });
    const forwarded = 'for=198.51.100.7;proto=https, for="[2001:db8::1]:8443"';
    expect(await who(fn, '10.0.0.2', { forwarded })).toMatchObject({ ip: '198.51.100.7', protocol: 'https' });
    expect(asked).toEqual([
      ['10.0.0.2', 0],
      ['2001:db8::1', 1],
      ['198.51.100.7', 2],
    ]);
  });
});

describe('proxyHeaders misuse', () => {
  it('throws a TernTypeError at construction', () => {
    for (const bad of ['forwarded-for', 'X-Forwarded', 'both', 1, null, 1n, Object.create(null)]) {
      expect(() => new TernApp({ trustProxy: 1, proxyHeaders: bad as never })).toThrow(TernTypeError);
      expect(() => new TernApp({ proxyHeaders: bad as never })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    }
    expect(() => new TernApp({ proxyHeaders: 'X-Forwarded' as never })).toThrow("proxyHeaders must be 'x-forwarded' or 'forwarded', got 'X-Forwarded'.");
  });
});

describe("proxyHeaders: 'forwarded' over a real connection", () => {
  it('reads several Forwarded lines in order', async () => {
    const server = appWith('loopback');
    const port = await listenOnFreePort(server);
    try {
      const response = await rawGet(port, '/who', 'Forwarded: for=6.6.6.6;proto=gopher\r\nForwarded: for="198.51.100.7:4711";proto=https;host=api.example.com\r\n');
      expect(JSON.parse(bodyOf(response))).toEqual({ ip: '198.51.100.7', protocol: 'https', host: 'api.example.com' });
    } finally {
      await server.close();
    }
  });
});
