/**
 * Services the container builds. `@singleton()` ones live as long as the app; `RequestContext`
 * is registered per request in a child container (request-scope.ts), and `AuditTrail`, resolved
 * from that child container, gets the request's own context.
 */
import { inject, injectable, singleton } from 'tsyringe';

export interface User {
  id: number;
  name: string;
}

/** App-wide: one instance, shared by every request. */
@singleton()
export class UserRepository {
  private readonly users = new Map<number, User>([
    [1, { id: 1, name: 'Ada Lovelace' }],
    [2, { id: 2, name: 'Grace Hopper' }],
  ]);

  find(id: number): User | undefined {
    return this.users.get(id);
  }

  rename(id: number, name: string): User | undefined {
    const user = this.users.get(id);
    if (user) user.name = name;
    return user;
  }
}

/** Per request: registered as a value in the request's child container. */
export class RequestContext {
  constructor(
    readonly requestId: string,
    readonly actor: string,
  ) {}
}

/** Token for the clock, so tests can register a fixed one. */
export const CLOCK = Symbol('clock');
export type Clock = () => Date;

/** Built per resolution, from the container it is resolved in: the request's child container. */
@injectable()
export class AuditTrail {
  constructor(
    private readonly context: RequestContext,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  entry(action: string): { requestId: string; actor: string; action: string; at: string } {
    return { requestId: this.context.requestId, actor: this.context.actor, action, at: this.clock().toISOString() };
  }
}
