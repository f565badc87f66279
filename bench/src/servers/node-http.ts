/**
 * The ceiling: a hand-routed `node:http` server. Static routes are a Map lookup, parametric
 * routes a small segment trie; the body is read by hand and validated by the hand-written checks
 * of shared/item-check.ts. No framework, no abstraction beyond what the scenarios need.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { checkItem } from '../shared/item-check';
import { INT_RE, MW_USER, SLUG_RE } from '../shared/payload';
import { FillerRoute, fillerBody, splitFillers } from '../shared/routes';
import { STATIC_NAME, staticRoot } from '../shared/static-file';
import { makePeople, toPersonJson } from '../shared/people';
import { makeUsers, toUserJson } from '../shared/users';
import { type ServerOptions, type StartServer, closeServer, listen } from './types';

type Req = http.IncomingMessage & { user?: { id: number } };
type Handler = (req: Req, res: http.ServerResponse, params: string[]) => void | Promise<void>;

interface TrieNode {
  statics: Map<string, TrieNode>;
  param: TrieNode | null;
  handlers: Map<string, Handler>;
}

const newNode = (): TrieNode => ({ statics: new Map(), param: null, handlers: new Map() });

class HandRouter {
  private readonly exact = new Map<string, Handler>();
  private readonly root = newNode();

  /** `segments`: a static string, or null for a parameter. */
  add(method: string, segments: (string | null)[], handler: Handler): void {
    if (segments.every((s) => s !== null)) {
      this.exact.set(`${method} /${segments.join('/')}`, handler);
      return;
    }
    let node = this.root;
    for (const seg of segments) {
      if (seg === null) node = node.param ??= newNode();
      else {
        let next = node.statics.get(seg);
        if (!next) node.statics.set(seg, (next = newNode()));
        node = next;
      }
    }
    node.handlers.set(method, handler);
  }

  find(method: string, path: string, params: string[]): Handler | undefined {
    const exact = this.exact.get(`${method} ${path}`);
    if (exact) return exact;
    const parts = path.split('/');
    return this.walk(this.root, parts, 1, method, params);
  }

  private walk(node: TrieNode, parts: string[], i: number, method: string, params: string[]): Handler | undefined {
    if (i === parts.length) return node.handlers.get(method);
    const part = parts[i]!;
    const st = node.statics.get(part);
    if (st) {
      const h = this.walk(st, parts, i + 1, method, params);
      if (h) return h;
    }
    if (node.param && part.length > 0) {
      params.push(part);
      const h = this.walk(node.param, parts, i + 1, method, params);
      if (h) return h;
      params.pop();
    }
    return undefined;
  }
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function readBody(req: http.IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
    req.on('aborted', () => reject(new Error('aborted')));
  });
}

function fillerSegments(route: FillerRoute): (string | null)[] {
  return [route.prefix.slice(1), ...route.segments.map((s) => (s.kind === 'static' ? s.value : null))];
}

// The three async middleware layers of scenario 4.
async function layer1(_req: Req, res: http.ServerResponse): Promise<void> {
  res.setHeader('x-mw-1', '1');
}
async function layer2(req: Req): Promise<void> {
  req.user = MW_USER;
}
async function layer3(_req: Req, res: http.ServerResponse): Promise<void> {
  res.setHeader('x-mw-3', '3');
}

export const start: StartServer = async (options: ServerOptions) => {
  const router = new HandRouter();
  const [before, after] = splitFillers(options.fillers);
  const addFillers = (routes: FillerRoute[]) => {
    for (const route of routes) {
      const body = fillerBody(route);
      router.add('GET', fillerSegments(route), (_req, res) => sendJson(res, 200, body));
    }
  };

  addFillers(before);

  router.add('GET', [''], (_req, res) => sendJson(res, 200, { hello: 'world' }));

  router.add('GET', ['users', null, 'posts', null], (_req, res, params) => {
    const [id, slug] = params as [string, string];
    if (!INT_RE.test(id) || !SLUG_RE.test(slug)) return sendJson(res, 422, { error: 'invalid path parameter' });
    sendJson(res, 200, { id: Number(id), slug });
  });

  let nextId = 0;
  router.add('POST', ['items'], async (req, res) => {
    const type = req.headers['content-type'];
    if (type === undefined || !type.startsWith('application/json')) return sendJson(res, 415, { error: 'expected JSON' });
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req, 1024 * 1024));
    } catch {
      return sendJson(res, 400, { error: 'invalid JSON' });
    }
    const result = checkItem(parsed);
    if ('errors' in result) return sendJson(res, 422, { errors: result.errors });
    sendJson(res, 201, { id: ++nextId, ...result.value });
  });

  router.add('GET', ['mw'], async (req, res) => {
    await layer1(req, res);
    await layer2(req);
    await layer3(req, res);
    sendJson(res, 200, { user: req.user!.id });
  });

  // Scenario 8: the file, streamed as is (a stat for the length, no validators, no ranges).
  const root = staticRoot();
  router.add('GET', ['static', null], (_req, res, params) => {
    const name = params[0]!;
    if (name !== STATIC_NAME) return sendJson(res, 404, { error: 'not found' });
    const file = path.join(root, name);
    fs.stat(file, (err, stat) => {
      if (err) return sendJson(res, 404, { error: 'not found' });
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stat.size });
      fs.createReadStream(file).pipe(res);
    });
  });
  const users = makeUsers();
  router.add('GET', ['users'], (_req, res) => sendJson(res, 200, users.map(toUserJson)));
  // Scenario 10: each entity mapped by hand, then JSON.stringify.
  const people = makePeople();
  router.add('GET', ['people'], (_req, res) => sendJson(res, 200, people.map(toPersonJson)));

  addFillers(after);

  const server = http.createServer((req: Req, res) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const params: string[] = [];
    const handler = router.find(req.method ?? 'GET', path, params);
    if (!handler) return sendJson(res, 404, { error: 'not found' });
    try {
      const p = handler(req, res, params);
      if (p) p.catch(() => { if (!res.headersSent) sendJson(res, 500, { error: 'internal' }); });
    } catch {
      if (!res.headersSent) sendJson(res, 500, { error: 'internal' });
    }
  });

  await listen(server, options);

  return {
    close: () => closeServer(server),
  };
};
