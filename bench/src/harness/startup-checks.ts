/**
 * What the startup scenario checks once a fresh process listens (issue 27): its first request,
 * timed, is GET /openapi.json where the server has one (and the document must describe every
 * route: path, GET operation, the `id` path parameter as a required integer, and the summary and
 * tags the route declared), else one of its routes; then a route answers, and a bad id is a 4xx.
 */
import { isDeepStrictEqual } from 'node:util';
import { performance } from 'node:perf_hooks';
import { startupBody, startupRoutes } from '../shared/startup-routes';
import { request } from './checks';
import type { StartupServer } from './protocol';

export interface FirstRequest {
  /** What the first request asked for. */
  path: string;
  /** Its wall time as the client saw it: connect, request, the whole body read. */
  ms: number;
  /** Operations in the OpenAPI document, when the first request fetched one. */
  operations?: number;
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const MAX_LISTED = 5;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Counts the operations of an OpenAPI document (every HTTP method of every path). */
export function countOperations(doc: unknown): number {
  if (!isObject(doc) || !isObject(doc.paths)) return 0;
  let n = 0;
  for (const item of Object.values(doc.paths)) {
    if (isObject(item)) n += HTTP_METHODS.filter((m) => isObject(item[m])).length;
  }
  return n;
}

/**
 * What is wrong with `doc` as the document of the startup scenario's `routeCount` routes: [] when
 * it is complete and correct. `summaries`: each operation must carry its route's summary and tags.
 */
export function openApiProblems(doc: unknown, routeCount: number, summaries: boolean): string[] {
  if (!isObject(doc) || !isObject(doc.paths)) return ['the document has no `paths` object'];
  const paths = doc.paths;
  const problems: string[] = [];
  for (const route of startupRoutes(routeCount)) {
    const key = `${route.path}/{id}`;
    const item = paths[key];
    const op = isObject(item) ? item.get : undefined;
    if (!isObject(op)) {
      problems.push(`GET ${key} is missing`);
      continue;
    }
    const params = Array.isArray(op.parameters) ? (op.parameters as unknown[]) : [];
    const id = params.find((p): p is Json => isObject(p) && p.name === 'id' && p.in === 'path');
    if (!id) problems.push(`GET ${key}: no \`id\` path parameter`);
    else if (id.required !== true) problems.push(`GET ${key}: the \`id\` path parameter is not required`);
    else if (!isObject(id.schema) || id.schema.type !== 'integer') {
      problems.push(`GET ${key}: the \`id\` path parameter's schema is ${JSON.stringify(id.schema)}, not an integer`);
    }
    if (summaries) {
      if (op.summary !== route.summary) problems.push(`GET ${key}: summary ${JSON.stringify(op.summary)}, expected ${JSON.stringify(route.summary)}`);
      if (!isDeepStrictEqual(op.tags, route.tags)) problems.push(`GET ${key}: tags ${JSON.stringify(op.tags)}, expected ${JSON.stringify(route.tags)}`);
    }
  }
  const operations = countOperations(doc);
  if (operations !== routeCount) problems.push(`${operations} operations, expected ${routeCount}`);
  if (problems.length <= MAX_LISTED) return problems;
  return [...problems.slice(0, MAX_LISTED), `and ${problems.length - MAX_LISTED} more problems`];
}

/** The first request to a fresh startup process, timed, then its routes checked. Throws what is wrong. */
export async function checkStartupServer(port: number, host: string, routeCount: number, server: StartupServer): Promise<FirstRequest> {
  const routes = startupRoutes(routeCount);
  const sample = routes[routes.length - 1]!;
  const sampleUrl = `${sample.path}/42`;
  let first: FirstRequest;
  const t0 = performance.now();
  if (server.openapi) {
    const r = await request(port, host, 'GET', '/openapi.json');
    first = { path: '/openapi.json', ms: performance.now() - t0 };
    if (r.status !== 200) throw new Error(`GET /openapi.json: status ${r.status}; ${r.text.slice(0, 200)}`);
    let doc: unknown;
    try {
      doc = JSON.parse(r.text);
    } catch {
      throw new Error(`GET /openapi.json: not JSON: ${r.text.slice(0, 120)}`);
    }
    first.operations = countOperations(doc);
    const problems = openApiProblems(doc, routeCount, server.openapi.summaries);
    if (problems.length > 0) throw new Error(`/openapi.json is incomplete: ${problems.join('; ')}`);
  } else {
    const r = await request(port, host, 'GET', sampleUrl);
    first = { path: sampleUrl, ms: performance.now() - t0 };
    if (r.status !== 200) throw new Error(`GET ${sampleUrl}: status ${r.status}`);
  }
  const r = await request(port, host, 'GET', sampleUrl);
  let body: unknown;
  try {
    body = JSON.parse(r.text);
  } catch {
    body = r.text;
  }
  if (r.status !== 200 || !isDeepStrictEqual(body, startupBody(sample, 42))) {
    throw new Error(`GET ${sampleUrl}: status ${r.status}, body ${r.text.slice(0, 120)}`);
  }
  const bad = await request(port, host, 'GET', `${routes[0]!.path}/x`);
  if (bad.status < 400 || bad.status >= 500) throw new Error(`GET ${routes[0]!.path}/x: status ${bad.status}, expected a 4xx`);
  return first;
}
