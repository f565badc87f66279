/**
 * Before any load, every server is asked each scenario's question once and its answer checked,
 * so that no server is measured doing less work than the others: right status and body, path
 * parameters really converted and validated, unknown body fields stripped, invalid bodies
 * rejected, middleware effects visible, filler routes present.
 */
import * as http from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import { ITEM_JSON, MW_EXPECTED, ROUTE_EXPECTED, ROUTE_URL, makeItem } from '../shared/payload';
import { PEOPLE_PATH, expectedPeople } from '../shared/people';
import { exampleUrl, fillerBody, fillerRoutes } from '../shared/routes';
import { STATIC_SIZE, STATIC_URL, staticBytes } from '../shared/static-file';
import { expectedUsers, USERS_PATH } from '../shared/users';
import { SESSION_COOKIE } from '../shared/store-bench';
import type { ScenarioId } from './scenarios';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  bytes: Buffer;
}

export function request(port: number, host: string, method: string, path: string, body?: string, extraHeaders: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host,
        port,
        method,
        path,
        agent: false,
        headers: { ...extraHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }) },
        timeout: 5000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out`)));
    req.on('error', reject);
    req.end(body);
  });
}

function json(reply: Reply): unknown {
  try {
    return JSON.parse(reply.text);
  } catch {
    throw new Error(`body is not JSON: ${reply.text.slice(0, 120)}`);
  }
}

function expect(cond: boolean, what: string): void {
  if (!cond) throw new Error(what);
}

function expectJson(reply: Reply, status: number, body: unknown, what: string): void {
  expect(reply.status === status, `${what}: status ${reply.status}, expected ${status}; body ${reply.text.slice(0, 200)}`);
  expect(String(reply.headers['content-type'] ?? '').includes('json'), `${what}: content-type ${reply.headers['content-type']}`);
  const got = json(reply);
  expect(isDeepStrictEqual(got, body), `${what}: body ${reply.text.slice(0, 200)}, expected ${JSON.stringify(body)}`);
}

/** Throws an Error saying what is wrong, or resolves. */
export async function checkScenario(id: ScenarioId, port: number, host: string, fillers: number): Promise<void> {
  switch (id) {
    case 'hello': {
      expectJson(await request(port, host, 'GET', '/'), 200, { hello: 'world' }, 'GET /');
      // The filler routes exist and answer (one of each group).
      for (const route of fillerRoutes(Math.min(fillers, 3))) {
        const url = exampleUrl(route);
        expectJson(await request(port, host, 'GET', url), 200, fillerBody(route), `GET ${url}`);
      }
      return;
    }
    case 'route': {
      expectJson(await request(port, host, 'GET', ROUTE_URL), 200, ROUTE_EXPECTED, `GET ${ROUTE_URL}`);
      for (const bad of ['/users/4x2/posts/hello-world', '/users/42/posts/Hello_World']) {
        const r = await request(port, host, 'GET', bad);
        expect(r.status >= 400 && r.status < 500, `GET ${bad}: status ${r.status}, expected a 4xx (parameter not validated?)`);
      }
      return;
    }
    case 'body':
    case 'body-zod': {
      const r = await request(port, host, 'POST', '/items', ITEM_JSON);
      expect(r.status === 201, `POST /items: status ${r.status}, expected 201; body ${r.text.slice(0, 300)}`);
      const got = json(r) as Record<string, unknown>;
      expect(typeof got.id === 'number' || typeof got.id === 'string', `POST /items: no id in ${r.text.slice(0, 200)}`);
      const { id: _id, ...rest } = got;
      expect(isDeepStrictEqual(rest, makeItem()), `POST /items: body does not echo the item: ${r.text.slice(0, 300)}`);

      const extra = await request(port, host, 'POST', '/items', JSON.stringify({ ...makeItem(), extra: 'x' }));
      expect(extra.status === 201, `POST /items with an unknown field: status ${extra.status}; body ${extra.text.slice(0, 200)}`);
      expect(!('extra' in (json(extra) as object)), 'POST /items: unknown field not stripped');

      const invalid = await request(port, host, 'POST', '/items', JSON.stringify({ ...makeItem(), price: 'free' }));
      expect(invalid.status === 400 || invalid.status === 422, `POST /items with price "free": status ${invalid.status}, expected 400/422`);
      const badLine = makeItem();
      badLine.lines[3]!.qty = 0;
      const invalidNested = await request(port, host, 'POST', '/items', JSON.stringify(badLine));
      expect(
        invalidNested.status === 400 || invalidNested.status === 422,
        `POST /items with lines.3.qty = 0: status ${invalidNested.status}, expected 400/422 (nested validation?)`,
      );
      return;
    }
    case 'users': {
      // Exactly the model's fields: no passwordHash, no resetToken, createdAt as an ISO string.
      const r = await request(port, host, 'GET', USERS_PATH);
      expectJson(r, 200, expectedUsers(), `GET ${USERS_PATH}`);
      expect(!/passwordHash|resetToken/.test(r.text), `GET ${USERS_PATH}: a filtered field was sent`);
      return;
    }
    case 'people': {
      // The same JSON from every server: the declared fields only, the same values (the float's
      // every digit, the bio's quotes, backslash and non-ASCII text as sent), the Date as an ISO
      // string, the address cut to city and zip. Parsed as UTF-8, so a wrong encoding fails too.
      const r = await request(port, host, 'GET', PEOPLE_PATH);
      expectJson(r, 200, expectedPeople(), `GET ${PEOPLE_PATH}`);
      expect(!/"(passwordHash|internalNote|street)"/.test(r.text), `GET ${PEOPLE_PATH}: an undeclared field was sent`);
      expect(
        r.headers['content-length'] === undefined || r.headers['content-length'] === String(r.bytes.length),
        `GET ${PEOPLE_PATH}: content-length ${r.headers['content-length']} for ${r.bytes.length} bytes`,
      );
      return;
    }
    case 'mw':
    case 'connect': {
      const r = await request(port, host, 'GET', '/mw');
      expectJson(r, 200, MW_EXPECTED, 'GET /mw');
      expect(r.headers['x-mw-1'] === '1', `GET /mw: x-mw-1 header is ${r.headers['x-mw-1']}`);
      expect(r.headers['x-mw-3'] === '3', `GET /mw: x-mw-3 header is ${r.headers['x-mw-3']}`);
      return;
    }
    case 'log': {
      // The hello answer, from the logging servers; Tern's also carries the request id it logged.
      const r = await request(port, host, 'GET', '/');
      expectJson(r, 200, { hello: 'world' }, 'GET / (logger on)');
      return;
    }
    case 'limit': {
      // tern-limit counts this request (the limit is never reached) and says so in its headers.
      const r = await request(port, host, 'GET', '/');
      expectJson(r, 200, { hello: 'world' }, 'GET / (rate-limited)');
      expect(r.headers.ratelimit === undefined || /^"default";r=\d+;t=\d+$/.test(String(r.headers.ratelimit)), `GET /: RateLimit header ${r.headers.ratelimit}`);
      return;
    }
    case 'session': {
      // tern-session's greeting comes only from the stored session the cookie names.
      expectJson(await request(port, host, 'GET', '/', undefined, { cookie: SESSION_COOKIE }), 200, { hello: 'world' }, 'GET / (session cookie)');
      return;
    }
    case 'limit-redis': {
      // Both servers count in Redis: each answers with its limit headers.
      const r = await request(port, host, 'GET', '/');
      expectJson(r, 200, { hello: 'world' }, 'GET / (rate-limited in Redis)');
      expect(r.headers.ratelimit !== undefined || r.headers['x-ratelimit-remaining'] !== undefined, 'GET /: no rate-limit header, so nothing was counted');
      return;
    }
    case 'file': {
      const r = await request(port, host, 'GET', STATIC_URL);
      expect(r.status === 200, `GET ${STATIC_URL}: status ${r.status}, expected 200`);
      expect(r.headers['content-length'] === String(STATIC_SIZE), `GET ${STATIC_URL}: content-length ${r.headers['content-length']}`);
      expect(r.bytes.equals(staticBytes()), `GET ${STATIC_URL}: the bytes differ from the file`);
      const missing = await request(port, host, 'GET', '/static/missing.bin');
      expect(missing.status === 404, `GET /static/missing.bin: status ${missing.status}, expected 404`);
      return;
    }
  }
}
