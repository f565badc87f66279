/**
 * One request's session for `session()` (session.ts): what was loaded from the store, what the
 * request changed, and how it is written back.
 */
import type { FlashMessage } from '../http/flash';
import { nodeCrypto } from '../http/node-crypto';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { SessionState } from '../http/session';
import type { TernStore } from '../store/store';

/** What a stored session holds: data, flash messages waiting for the next page, the CSRF token, when it was written. */
export interface StoredSession {
  d: { [key: string]: unknown };
  f?: FlashMessage[];
  c?: string;
  t: number;
}

/** The store key of a session id. */
export const storeKey = (id: string) => `sess:${id}`;
const newId = () => nodeCrypto().randomBytes(32).toString('base64url');

/** A stored session, or undefined when missing or not one (never trusted blindly). */
export function parseRecord(text: string | undefined): StoredSession | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<StoredSession>;
    if (typeof parsed !== 'object' || parsed === null || typeof parsed.d !== 'object' || parsed.d === null || typeof parsed.t !== 'number') return undefined;
    return parsed as StoredSession;
  } catch {
    return undefined;
  }
}

/** One request's session: what was loaded, what changed. */
export class SessionData implements SessionState {
  private readonly data: Map<string, unknown>;
  private flashes: FlashMessage[];
  private flashesTaken = false;
  private csrf?: string;
  changed = false;

  constructor(
    readonly store: TernStore,
    /** Drawn on first use: a request that never stores anything never pays for random bytes. */
    private currentId: string | undefined,
    /** The record loaded for this id, or undefined for a new session. */
    public stored: StoredSession | undefined,
  ) {
    this.data = new Map(stored ? Object.entries(stored.d) : []);
    this.flashes = stored?.f ?? [];
    this.csrf = stored?.c;
  }

  get id(): string {
    return (this.currentId ??= newId());
  }

  get<T = unknown>(key: string): T | undefined {
    return this.data.get(key) as T | undefined;
  }

  set(key: string, value: unknown): void {
    if (value === undefined) return this.delete(key);
    this.data.set(key, value);
    this.changed = true;
  }

  delete(key: string): void {
    if (this.data.delete(key)) this.changed = true;
  }

  async regenerate(): Promise<void> {
    const old = this.id;
    this.currentId = undefined;
    // A token handed out before sign-in is not valid after it.
    this.csrf = undefined;
    this.changed = true;
    if (this.stored) {
      this.stored = undefined;
      await this.store.delete(storeKey(old));
    }
  }

  async destroy(): Promise<void> {
    const old = this.id;
    const wasStored = this.stored !== undefined;
    this.data.clear();
    this.flashes = [];
    this.csrf = undefined;
    this.currentId = undefined;
    this.stored = undefined;
    this.changed = false;
    if (wasStored) await this.store.delete(storeKey(old));
  }

  takeFlashes(): { messages: FlashMessage[]; hadCookie: boolean } {
    this.flashesTaken = true;
    return { messages: this.flashes.map((m) => Object.freeze({ type: m.type, message: m.message })), hadCookie: false };
  }

  csrfToken(create: true): string;
  csrfToken(create: boolean): string | undefined;
  csrfToken(create: boolean): string | undefined {
    if (this.csrf === undefined && create) {
      this.csrf = nodeCrypto().randomBytes(24).toString('base64url');
      this.changed = true;
    }
    return this.csrf;
  }

  /** Moves the messages this answer queued into the session, and drops the ones this request read. */
  settleFlashes(req: TernRequest, res: TernResponse): void {
    const queued = res.flashOut;
    const read = this.flashesTaken && req.flashState !== undefined;
    if (read && this.flashes.length > 0) {
      this.flashes = [];
      this.changed = true;
    }
    if (queued !== undefined && queued.length > 0) {
      this.flashes = [...this.flashes, ...queued];
      this.changed = true;
      // Nothing for the pipeline to put in a cookie: they wait in the session.
      res.flashOut = undefined;
    }
  }

  isEmpty(): boolean {
    return this.data.size === 0 && this.flashes.length === 0 && this.csrf === undefined;
  }

  serialise(now: number): string {
    const record: StoredSession = { d: Object.fromEntries(this.data), t: now };
    if (this.flashes.length > 0) record.f = this.flashes;
    if (this.csrf !== undefined) record.c = this.csrf;
    this.stored = record;
    return JSON.stringify(record);
  }
}
