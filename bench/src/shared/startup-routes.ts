/**
 * The startup scenario's route table (issue 27): N routes `GET /rI/mJ/{id:int}`, ten per
 * resource `rI` (the ten methods of one controller in the controller app). Every route answers
 * `{"route": k, "id": <the id as a number>}`; an id that is not digits is a 4xx (404 or 422).
 *
 * Kept free of imports on purpose: the bare node:http floor loads this module and nothing else.
 */

/** Routes per resource (`/rI/m0` … `/rI/m9`): the methods of one controller. */
export const ROUTES_PER_RESOURCE = 10;

export interface StartupRoute {
  /** 0 … N-1, the value of `route` in the answer. */
  index: number;
  /** I: the resource, or controller. */
  resource: number;
  /** J: the route within its resource. */
  method: number;
  /** `/rI`: the controller prefix. */
  prefix: string;
  /** `/mJ`: the path within the controller, before the id. */
  sub: string;
  /** `/rI/mJ`: the full path before the id. */
  path: string;
  summary: string;
  tags: string[];
}

export function startupRoutes(count: number): StartupRoute[] {
  const out: StartupRoute[] = [];
  for (let index = 0; index < count; index++) {
    const resource = Math.floor(index / ROUTES_PER_RESOURCE);
    const method = index % ROUTES_PER_RESOURCE;
    const prefix = `/r${resource}`;
    const sub = `/m${method}`;
    out.push({
      index,
      resource,
      method,
      prefix,
      sub,
      path: prefix + sub,
      summary: `Read item ${method} of resource ${resource}`,
      tags: [`r${resource}`],
    });
  }
  return out;
}

/** The answer of a startup route for `id`. */
export function startupBody(route: StartupRoute, id: number): { route: number; id: number } {
  return { route: route.index, id };
}
