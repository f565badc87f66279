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

/**
 * Records already parsed, by their text, when sharing them is safe: data of strings, numbers,
 * booleans and nulls only, and no flash messages. Nothing can change those in place (a request
 * that writes copies the data first), so a returning visitor's JSON is parsed once, not on each
 * request. A record holding an object or array is parsed each time: a handler may change what it
 * read, and that must not reach another request.
 */
const sharedRecords = new Map<string, StoredSession>();
const SHARED_RECORDS = 10_000;
/** Only small records are kept (a user id, a token): the cache holds at most ~5 MB of text. */
const SHARED_RECORD_LENGTH = 512;

/** A stored session, or undefined when missing or not one (never trusted blindly). */
export function parseRecord(text: string | undefined): StoredSession | undefined {
  if (text === undefined) return undefined;
  const shared = sharedRecords.get(text);
  if (shared !== undefined) return shared;
  let parsed: Partial<StoredSession>;
  try {
    parsed = JSON.parse(text) as Partial<StoredSession>;
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || typeof parsed.d !== 'object' || parsed.d === null || typeof parsed.t !== 'number') return undefined;
  const record = parsed as StoredSession;
  if (text.length <= SHARED_RECORD_LENGTH && record.f === undefined && Object.values(record.d).every(isPrimitive)) {
    if (sharedRecords.size >= SHARED_RECORDS) sharedRecords.clear();
    sharedRecords.set(text, Object.freeze(record));
    Object.freeze(record.d);
  }
  return record;
}

const isPrimitive = (value: unknown) => value === null || typeof value !== 'object';

/** One request's session: what was loaded, what changed. */
export class SessionData implements SessionState {
  /**
   * The data once this request changes it; until then reads go to the stored record's `d`, so a
   * request that only reads its session builds no map.
   */
  private data?: Map<string, unknown>;
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
    this.flashes = stored?.f ?? [];
    this.csrf = stored?.c;
  }

  get id(): string {
    return (this.currentId ??= newId());
  }

  get<T = unknown>(key: string): T | undefined {
    if (this.data !== undefined) return this.data.get(key) as T | undefined;
    const stored = this.stored?.d;
    // Own keys only: a key such as `constructor` or `__proto__` is data, never the prototype's.
    return stored !== undefined && Object.hasOwn(stored, key) ? (stored[key] as T) : undefined;
  }

  set(key: string, value: unknown): void {
    if (value === undefined) return this.delete(key);
    this.writable().set(key, value);
    this.changed = true;
  }

  delete(key: string): void {
    if (this.writable().delete(key)) this.changed = true;
  }

  private writable(): Map<string, unknown> {
    return (this.data ??= new Map(this.stored ? Object.entries(this.stored.d) : []));
  }

  async regenerate(): Promise<void> {
    const old = this.id;
    this.currentId = undefined;
    // A token handed out before sign-in is not valid after it.
    this.csrf = undefined;
    this.changed = true;
    if (this.stored) {
      this.writable();
      this.stored = undefined;
      await this.store.delete(storeKey(old));
    }
  }

  async destroy(): Promise<void> {
    const old = this.id;
    const wasStored = this.stored !== undefined;
    this.data = new Map();
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
    const hasData = this.data !== undefined ? this.data.size > 0 : this.stored !== undefined && hasOwnKeys(this.stored.d);
    return !hasData && this.flashes.length === 0 && this.csrf === undefined;
  }

  serialise(now: number): string {
    const record: StoredSession = { d: this.data !== undefined ? Object.fromEntries(this.data) : { ...this.stored?.d }, t: now };
    if (this.flashes.length > 0) record.f = this.flashes;
    if (this.csrf !== undefined) record.c = this.csrf;
    this.stored = record;
    return JSON.stringify(record);
  }
}

/** Whether `record` has a key of its own (without listing them all, as `Object.keys` would). */
function hasOwnKeys(record: object): boolean {
  for (const key in record) if (Object.hasOwn(record, key)) return true;
  return false;
}
