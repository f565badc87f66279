/**
 * `req.ip`, `req.protocol`, `req.host` and the `trustProxy` option: forwarded headers count only
 * when they come from trusted hops; anyone else can write them.
 */
import { TernApp, type TernAppOptions } from '@tern/core';
import { listenOnFreePort, rawGet, bodyOf } from '../../../test-support/raw-http';

function appWith(trustProxy: TernAppOptions['trustProxy']): TernApp {
  const app = new TernApp({ trustProxy, logger: false });
  app.get('/who', async (req) => ({ ip: req.ip ?? null, protocol: req.protocol, host: req.host ?? null }));
  return app;
}

async function who(app: TernApp, remoteAddress: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ url: '/who', remoteAddress, headers: { host: 'app.internal:3000', ...headers } });
  return response.json() as { ip: string | null; protocol: string; host: string | null };
}

const spoofed = { 'x-forwarded-for': '6.6.6.6', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example' };

describe('without trustProxy (the default)', () => {
  it('describes the connection and ignores forwarded headers', async () => {
    const app = appWith(undefined);
    expect(await who(app, '203.0.113.9', spoofed)).toEqual({ ip: '203.0.113.9', protocol: 'http', host: 'app.internal:3000' });
  });

  it('gives the socket peer over a real connection', async () => {
    const app = appWith(false);
    const port = await listenOnFreePort(app);
    try {
      const response = await rawGet(port, '/who', 'X-Forwarded-For: 6.6.6.6\r\nX-Forwarded-Proto: https\r\n');
      expect(JSON.parse(bodyOf(response))).toEqual({ ip: '127.0.0.1', protocol: 'http', host: 'x' });
    } finally {
      await app.close();
    }
  });
});

describe('trustProxy with addresses and ranges', () => {
  const app = appWith(['10.0.0.0/8', '192.168.1.1']);

  it('takes the client from a trusted proxy', async () => {
    expect(await who(app, '10.0.0.2', { 'x-forwarded-for': '198.51.100.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'api.example.com' })).toEqual({
      ip: '198.51.100.7',
      protocol: 'https',
      host: 'api.example.com',
    });
  });

  it('ignores the same headers from an untrusted peer', async () => {
    expect(await who(app, '203.0.113.9', spoofed)).toEqual({ ip: '203.0.113.9', protocol: 'http', host: 'app.internal:3000' });
  });

  it('stops at the first untrusted hop: what the client wrote before it is ignored', async () => {
    // The client sent X-Forwarded-For: 6.6.6.6 and X-Forwarded-Proto: https; the proxy appended.
    const headers = { 'x-forwarded-for': '6.6.6.6, 198.51.100.7', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'evil.example, api.example.com' };
    expect(await who(app, '10.0.0.2', headers)).toEqual({ ip: '198.51.100.7', protocol: 'http', host: 'api.example.com' });
  });

  it('walks a chain of trusted proxies for the client address', async () => {
    // client -> 192.168.1.1 (edge, sets X-Forwarded-Proto) -> 10.0.0.2 (passes it on) -> app
    const headers = { 'x-forwarded-for': '198.51.100.7, 192.168.1.1', 'x-forwarded-proto': 'https' };
    expect(await who(app, '10.0.0.2', headers)).toEqual({ ip: '198.51.100.7', protocol: 'https', host: 'app.internal:3000' });
  });

  it('reads only the last Proto/Host entry: one further left may come from the client', async () => {
    // The edge appended to what the client sent; the inner proxy passed the header on.
    const headers = { 'x-forwarded-for': '198.51.100.7, 192.168.1.1', 'x-forwarded-proto': 'https, http', 'x-forwarded-host': 'evil.example, api.example.com' };
    expect(await who(app, '10.0.0.2', headers)).toMatchObject({ protocol: 'http', host: 'api.example.com' });
  });

  it('honours Proto/Host from a trusted peer that sent no X-Forwarded-For', async () => {
    expect(await who(app, '10.0.0.2', { 'x-forwarded-proto': 'https' })).toEqual({ ip: '10.0.0.2', protocol: 'https', host: 'app.internal:3000' });
  });

  it('falls back to the connection when a trusted proxy sends no or malformed headers', async () => {
    expect(await who(app, '10.0.0.2')).toEqual({ ip: '10.0.0.2', protocol: 'http', host: 'app.internal:3000' });
    expect(await who(app, '10.0.0.2', { 'x-forwarded-proto': 'ht tp', 'x-forwarded-host': 'a/b' })).toMatchObject({ protocol: 'http', host: 'app.internal:3000' });
  });

  it('takes only a valid host[:port] from X-Forwarded-Host (issue 42 item 8)', async () => {
    const refused = [
      'x%0d%0aSet-Cookie:a',
      'evil.example:99999',
      'evil.example:0',
      'evil.example:80a',
      'evil.example:+80',
      'evil.example:',
      'api.example.com:443:1',
      '%65vil.example',
      'a b',
      'user@evil.example',
      'evil.example/path',
      '-evil.example',
      'evil..example',
      '[::1',
      '[not-v6]:80',
      '[::1]x',
      '::1',
      `${'a'.repeat(64)}.example`,
      'évil.example',
    ];
    for (const host of refused) {
      expect([host, (await who(app, '10.0.0.2', { 'x-forwarded-host': host })).host]).toEqual([host, 'app.internal:3000']);
    }
    const kept = ['api.example.com', 'api.example.com:8443', 'api.example.com:65535', 'localhost:1', '192.0.2.7:8080', '[2001:db8::17]', '[2001:db8::17]:4711', 'my_host.internal', 'example.com.'];
    for (const host of kept) expect(await who(app, '10.0.0.2', { 'x-forwarded-host': host })).toMatchObject({ host });
  });

  it('accepts a comma-separated string and named ranges', async () => {
    const named = appWith('loopback, 10.0.0.0/8');
    expect(await who(named, '127.0.0.1', { 'x-forwarded-for': '198.51.100.7' })).toMatchObject({ ip: '198.51.100.7' });
    expect(await who(named, '198.51.100.8', { 'x-forwarded-for': '6.6.6.6' })).toMatchObject({ ip: '198.51.100.8' });
  });
});

describe('a long, fully trusted X-Forwarded-For (issue 42 item 9)', () => {
  /** `count` addresses 10.0.x.y, leftmost first. */
  const chainOf = (count: number) => Array.from({ length: count }, (_, i) => `10.0.${i >> 8}.${i & 255}`);

  it('checks at most 32 hops of a 14 KiB header, and names no client past them', async () => {
    const seen: number[] = [];
    const app = appWith((_address, hop) => {
      seen.push(hop);
      return true;
    });
    const header = chainOf(1300).join(', ');
    expect(header.length).toBeGreaterThan(14 * 1024);
    const response = await who(app, '10.0.0.1', { 'x-forwarded-for': header, 'x-forwarded-host': 'api.example.com' });
    expect(response).toEqual({ ip: null, protocol: 'http', host: 'api.example.com' });
    expect(seen.length).toBeLessThanOrEqual(33);
    expect(Math.max(...seen)).toBe(32);
  });

  it('walks 32 trusted proxies (the peer and 31 more) to the client, and gives up one hop further', async () => {
    const app = appWith('10.0.0.0/8');
    expect(await who(app, '10.0.0.1', { 'x-forwarded-for': ['198.51.100.7', ...chainOf(31)].join(', ') })).toMatchObject({ ip: '198.51.100.7' });
    expect(await who(app, '10.0.0.1', { 'x-forwarded-for': ['198.51.100.7', ...chainOf(32)].join(', ') })).toMatchObject({ ip: null });
    expect(await who(appWith(true), '10.0.0.1', { 'x-forwarded-for': chainOf(40).join(', ') })).toMatchObject({ ip: null });
  });

  it('reads only the last 4 KiB: the client is found there, or nobody is', async () => {
    const app = appWith('10.0.0.0/8');
    const junk = '6.6.6.6, '.repeat(1500);
    expect(await who(app, '10.0.0.1', { 'x-forwarded-for': `${junk}198.51.100.7, 10.0.0.2` })).toMatchObject({ ip: '198.51.100.7' });
    const padded = `198.51.100.7, 10.0.0.3,${' '.repeat(5000)}10.0.0.2`;
    expect(await who(app, '10.0.0.1', { 'x-forwarded-for': padded })).toMatchObject({ ip: null });
  });

  it('bounds Forwarded the same way', async () => {
    const app = new TernApp({ trustProxy: '10.0.0.0/8', proxyHeaders: 'forwarded', logger: false });
    app.get('/who', async (req) => ({ ip: req.ip ?? null }));
    const forwarded = (chain: string[]) => chain.map((address) => `for=${address}`).join(', ');
    const ip = async (chain: string[]) => (await app.inject({ url: '/who', remoteAddress: '10.0.0.1', headers: { forwarded: forwarded(chain) } })).json() as { ip: string | null };
    expect(await ip(['198.51.100.7', ...chainOf(31)])).toEqual({ ip: '198.51.100.7' });
    expect(await ip(['198.51.100.7', ...chainOf(32)])).toEqual({ ip: null });
  });
});

describe('trustProxy with a hop count, true or a function', () => {
  it('trusts exactly that many hops', async () => {
    const app = appWith(1);
    const headers = { 'x-forwarded-for': '6.6.6.6, 198.51.100.7', 'x-forwarded-proto': 'https, http' };
    expect(await who(app, '203.0.113.9', headers)).toEqual({ ip: '198.51.100.7', protocol: 'http', host: 'app.internal:3000' });
    expect(await who(appWith(2), '203.0.113.9', headers)).toMatchObject({ ip: '6.6.6.6', protocol: 'http' });
  });

  it('trusts every hop with true', async () => {
    const app = appWith(true);
    expect(await who(app, '203.0.113.9', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' })).toMatchObject({ ip: '6.6.6.6' });
  });

  it('asks a function about each hop', async () => {
    const asked: Array<[string, number]> = [];
    const app = appWith((address, hop) => {
      asked.push([address, hop]);
      return address === '10.0.0.2';
    });
    expect(await who(app, '10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 198.51.100.7' })).toMatchObject({ ip: '198.51.100.7' });
    expect(asked).toEqual([
      ['10.0.0.2', 0],
      ['198.51.100.7', 1],
    ]);
  });

  it('treats false and 0 as off', async () => {
    expect(await who(appWith(0), '203.0.113.9', spoofed)).toMatchObject({ ip: '203.0.113.9', protocol: 'http' });
  });
});

describe('trustProxy misuse', () => {
  it('throws a TernTypeError naming the problem at construction', () => {
    expect(() => new TernApp({ trustProxy: ['10.0.0.0/33'] })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ trustProxy: 'not-an-ip' })).toThrow(TypeError);
    expect(() => new TernApp({ trustProxy: -1 })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
    expect(() => new TernApp({ trustProxy: {} as never })).toThrow(expect.objectContaining({ code: 'TERN_INVALID_ARGUMENT' }));
  });
});

describe("what 'x-forwarded' mode hands out", () => {
  it('gives an IP address or undefined for req.ip, and only http or https for req.protocol, over a real connection', async () => {
    const app = new TernApp({ trustProxy: 'loopback', logger: false });
    app.get('/who', async (req) => ({ ip: req.ip ?? null, protocol: req.protocol }));
    const port = await listenOnFreePort(app);
    const ask = async (headers: string) => JSON.parse(bodyOf(await rawGet(port, '/who', headers))) as { ip: string | null; protocol: string };
    try {
      expect(await ask('X-Forwarded-For: <script>alert(1)</script>\r\nX-Forwarded-Proto: javascript\r\n')).toEqual({ ip: null, protocol: 'http' });
      expect(await ask("X-Forwarded-For: ' OR 1=1\r\nX-Forwarded-Proto: ws\r\n")).toEqual({ ip: null, protocol: 'http' });
      expect(await ask('X-Forwarded-For: unknown\r\nX-Forwarded-Proto: HTTPS\r\n')).toEqual({ ip: null, protocol: 'https' });
      expect(await ask('X-Forwarded-For: 2001:db8::17\r\n')).toEqual({ ip: '2001:db8::17', protocol: 'http' });
    } finally {
      await app.close();
    }
  });

  it('ends the walk at an entry that is no address, even when every hop is trusted', async () => {
    const headers = { 'x-forwarded-for': '6.6.6.6, not-an-ip, 198.51.100.7' };
    expect(await who(appWith(true), '203.0.113.9', headers)).toMatchObject({ ip: null });
    expect(await who(appWith(3), '203.0.113.9', headers)).toMatchObject({ ip: null });
    expect(await who(appWith(1), '203.0.113.9', headers)).toMatchObject({ ip: '198.51.100.7' });
  });
});
