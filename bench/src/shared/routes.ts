/**
 * The route table every server registers, generated the same way everywhere.
 *
 * Besides the scenario routes (GET /, GET /users/{id}/posts/{slug}, POST /items, GET /mw,
 * GET /users, GET /people, GET /static/{name}),
 * each server registers N "filler" routes so that routing works against a realistic table:
 * ~100 routes for the throughput scenarios (the startup scenario has its own table,
 * startup-routes.ts).
 *
 * Filler routes come in three groups that share prefixes with each other and with the scenario
 * route, so a trie router has real branching to do and a linear router has real work to do:
 *   static:  /static/s{i}/page
 *   users:   /users/{id:int}/f{i}                (siblings of /users/{id:int}/posts/{slug:slug})
 *   orgs:    /orgs/o{i}/{orgId:int}/members/{name}
 * Every filler answers GET with {"route": i}.
 *
 * Registration order is the same in every server: the first half of the fillers, then the
 * scenario routes, then the second half. Order does not matter to trie routers (find-my-way,
 * Tern); it matters to Express's linear router, and "in the middle" is the honest position.
 */

export type FillerGroup = 'static' | 'users' | 'orgs';

export type Segment =
  | { kind: 'static'; value: string }
  | { kind: 'param'; name: string; type: 'int' | 'str' };

export interface FillerRoute {
  index: number;
  group: FillerGroup;
  /** Controller-style prefix ("/static", "/users", "/orgs"). */
  prefix: string;
  /** Segments after the prefix. */
  segments: Segment[];
}

/** Number of filler routes in the throughput scenarios (the scenario routes come on top). */
export const DEFAULT_FILLERS = 99;
const GROUPS: FillerGroup[] = ['static', 'users', 'orgs'];

export function fillerRoutes(count: number): FillerRoute[] {
  const out: FillerRoute[] = [];
  for (let i = 0; i < count; i++) {
    const group = GROUPS[i % GROUPS.length]!;
    switch (group) {
      case 'static':
        out.push({
          index: i,
          group,
          prefix: '/static',
          segments: [
            { kind: 'static', value: `s${i}` },
            { kind: 'static', value: 'page' },
          ],
        });
        break;
      case 'users':
        out.push({
          index: i,
          group,
          prefix: '/users',
          segments: [
            { kind: 'param', name: 'id', type: 'int' },
            { kind: 'static', value: `f${i}` },
          ],
        });
        break;
      case 'orgs':
        out.push({
          index: i,
          group,
          prefix: '/orgs',
          segments: [
            { kind: 'static', value: `o${i}` },
            { kind: 'param', name: 'orgId', type: 'int' },
            { kind: 'static', value: 'members' },
            { kind: 'param', name: 'name', type: 'str' },
          ],
        });
        break;
    }
  }
  return out;
}

/** The fillers registered before the scenario routes, and those registered after them. */
export function splitFillers(count: number): [FillerRoute[], FillerRoute[]] {
  const all = fillerRoutes(count);
  const half = Math.ceil(all.length / 2);
  return [all.slice(0, half), all.slice(half)];
}

/** Path after the prefix, Tern syntax: `/{id:int}/f1`. */
export function ternSubPath(route: FillerRoute): string {
  return route.segments
    .map((s) => (s.kind === 'static' ? `/${s.value}` : s.type === 'int' ? `/{${s.name}:int}` : `/{${s.name}}`))
    .join('');
}

/** Full path, Tern syntax: `/users/{id:int}/f1`. */
export function ternPath(route: FillerRoute): string {
  return route.prefix + ternSubPath(route);
}

/** Path after the prefix, Express/Fastify/Nest syntax: `/:id/f1`. */
export function colonSubPath(route: FillerRoute): string {
  return route.segments.map((s) => (s.kind === 'static' ? `/${s.value}` : `/:${s.name}`)).join('');
}

/** Full path, Express/Fastify/Nest syntax: `/users/:id/f1`. */
export function colonPath(route: FillerRoute): string {
  return route.prefix + colonSubPath(route);
}

/** A concrete URL that hits the filler (used by the correctness checks). */
export function exampleUrl(route: FillerRoute): string {
  return (
    route.prefix +
    route.segments.map((s) => (s.kind === 'static' ? `/${s.value}` : s.type === 'int' ? '/12' : '/alice')).join('')
  );
}

/** The body every filler answers with. */
export function fillerBody(route: FillerRoute): { route: number } {
  return { route: route.index };
}

/** Filler routes by group, in first-seen order: the controller servers make one class per group. */
export function groupFillers(routes: FillerRoute[]): Map<FillerGroup, FillerRoute[]> {
  const groups = new Map<FillerGroup, FillerRoute[]>();
  for (const route of routes) {
    const list = groups.get(route.group) ?? [];
    list.push(route);
    groups.set(route.group, list);
  }
  return groups;
}
