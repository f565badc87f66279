import type { RouteInfo } from '../routing/route-info';
import { OpenAPIDocumentError } from './errors';

/** One documented operation: a route and one of its methods. */
export interface OperationRef {
  route: RouteInfo;
  method: string;
}

/**
 * Hands out the `operationId` of every operation in one document, unique across it and the
 * same from one run to the next (it depends only on declarations and their order).
 *
 * - An explicit `operationId` is used as written; on a route with several methods each operation
 *   gets it with `_<method>` appended. Two operations with one explicit id fail startup.
 * - Otherwise a named route gives its full name with dots as underscores (`v1.users.get` →
 *   `v1_users_get`, plus `_<method>` when the route has several methods), and an unnamed one
 *   its method and path (`GET /users/{id:int}` → `get_users_id`).
 * - A default that is already taken gets `_2`, `_3`… in declaration order. Explicit ids are
 *   reserved first, so a default never takes an id someone wrote.
 */
export class OperationIds {
  private readonly taken = new Set<string>();
  private readonly explicit = new Map<OperationRef, string>();

  constructor(operations: readonly OperationRef[]) {
    const owners = new Map<string, OperationRef>();
    for (const operation of operations) {
      const id = explicitId(operation);
      if (id === undefined) continue;
      const owner = owners.get(id);
      if (owner) {
        throw new OpenAPIDocumentError(
          'TERN_DUPLICATE_OPERATION_ID',
          `operationId '${id}' is used by ${describe(owner)} and ${describe(operation)}; operation ids must be unique in the document.`,
        );
      }
      owners.set(id, operation);
      this.explicit.set(operation, id);
      this.taken.add(id);
    }
  }

  /** The id of one operation; call once per operation, in document order. */
  idFor(operation: OperationRef): string {
    const explicit = this.explicit.get(operation);
    if (explicit !== undefined) return explicit;
    const base = defaultId(operation);
    let id = base;
    for (let n = 2; this.taken.has(id); n++) id = `${base}_${n}`;
    this.taken.add(id);
    return id;
  }
}

function explicitId({ route, method }: OperationRef): string | undefined {
  const id = route.options.operationId;
  if (id === undefined) return undefined;
  return route.methods.length > 1 ? `${id}_${method.toLowerCase()}` : id;
}

function defaultId({ route, method }: OperationRef): string {
  const verb = method.toLowerCase();
  const name = route.name ? identifier(route.name) : '';
  if (name) return route.methods.length > 1 ? `${name}_${verb}` : name;
  // The path without converters: `/users/{id:int}/posts` → `users_id_posts`.
  const path = identifier(route.template);
  return `${verb}_${path || 'root'}`;
}

/** Letters, digits and underscores only: what every client generator turns into a method name. */
function identifier(text: string): string {
  return text
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
}

function describe({ route, method }: OperationRef): string {
  return `${method} ${route.rawPath}`;
}
