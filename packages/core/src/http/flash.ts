import { parseCookieHeader } from './cookie-codec';
import type { TernRequest } from './request';
import type { TernResponse } from './response';
import { sign, unsign } from './signing';

/**
 * One message queued by `res.flash(type, message)` and read as `req.flashes`.
 *
 * @example
 * const greeting: FlashMessage = { type: 'success', message: 'Thanks, Ada!' };
 */
export interface FlashMessage {
  readonly type: string;
  readonly message: string;
}

export const FLASH_COOKIE = 'tern_flash';
/** Browsers keep cookies up to ~4 KB; older messages are dropped to stay under it. */
const MAX_COOKIE_VALUE = 3500;
/** A flash is for the very next page: it does not outlive a short visit. */
const MAX_AGE_SECONDS = 600;

/** What the request's flash cookie held: the messages (empty when absent, forged or malformed). */
export function readFlashes(cookieHeader: string | undefined, key: Buffer): { messages: FlashMessage[]; hadCookie: boolean } {
  const raw = cookieHeader ? parseCookieHeader(cookieHeader)[FLASH_COOKIE] : undefined;
  if (raw === undefined) return { messages: [], hadCookie: false };
  const value = unsign(key, raw);
  if (value === undefined) return { messages: [], hadCookie: true };
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    const list = unexpired(parsed);
    const messages = Array.isArray(list)
      ? list.filter((m): m is FlashMessage => typeof m?.type === 'string' && typeof m?.message === 'string').map(({ type, message }) => Object.freeze({ type, message }))
      : [];
    return { messages, hadCookie: true };
  } catch {
    return { messages: [], hadCookie: true };
  }
}

/**
 * `flashes` in every template's context: the request's messages, used up only when a template
 * shows them (`{% for flash in flashes %}`), so a page that does not, a redirect or a static file
 * leaves them for the page that does. `flashes.length` looks without using them up.
 *
 * @example
 * // templates/base.html
 * // {% if flashes.length %}<ul>{% for flash in flashes %}<li class="{{ flash.type }}">{{ flash.message }}</li>{% endfor %}</ul>{% endif %}
 */
export class PendingFlashes implements Iterable<FlashMessage> {
  /** Not an own enumerable property: a renderer that walks or serializes its context never meets the request. */
  readonly #req: Pick<TernRequest, 'flashes' | 'peekFlashes'>;

  constructor(req: Pick<TernRequest, 'flashes' | 'peekFlashes'>) {
    this.#req = req;
  }

  /** How many messages wait, without using them up. */
  get length(): number {
    return this.#req.peekFlashes().length;
  }

  [Symbol.iterator](): Iterator<FlashMessage> {
    return this.#req.flashes[Symbol.iterator]();
  }

  /** Serialized (a context written as JSON), the waiting messages, not used up. */
  toJSON(): readonly FlashMessage[] {
    return this.#req.peekFlashes();
  }
}

/**
 * Writes the flash cookie once the answer is known: the messages this response queued (after
 * any the request carried and nobody read, so a redirect chain loses none), or an expired cookie
 * once the request's messages were read.
 */
export function settleFlashes(req: TernRequest, res: TernResponse, key: Buffer): void {
  const queued = res.flashOut;
  const read = req.flashState;
  // Nothing read and nothing queued: the browser keeps whatever cookie it has.
  if (queued === undefined && read === undefined) return;
  const header = req.raw.headers.cookie;
  const incoming = read ?? readFlashes(header, key);
  const messages = [...(read === undefined ? incoming.messages : []), ...(queued ?? [])];
  const options = { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: req.protocol === 'https' };
  if (messages.length === 0) {
    if (incoming.hadCookie) res.setCookie(FLASH_COOKIE, '', { ...options, maxAge: 0 });
    return;
  }
  let value = encode(key, messages);
  while (value.length > MAX_COOKIE_VALUE && messages.length > 1) {
    messages.shift();
    value = encode(key, messages);
  }
  if (value.length <= MAX_COOKIE_VALUE) res.setCookie(FLASH_COOKIE, value, { ...options, maxAge: MAX_AGE_SECONDS });
}

/**
 * The signed value carries its own expiry (`{ e: unix seconds, m: messages }`): the cookie's
 * Max-Age only asks the browser to forget it, and a copy taken from a request (a shared
 * computer, a log) would otherwise show its messages again forever.
 */
function encode(key: Buffer, messages: FlashMessage[]): string {
  const value = { e: Math.floor(Date.now() / 1000) + MAX_AGE_SECONDS, m: messages };
  return sign(key, Buffer.from(JSON.stringify(value), 'utf8').toString('base64url'));
}

/** The messages of a decoded value that has not expired; anything else (old format included) is none. */
function unexpired(parsed: unknown): unknown {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { e: expires, m: messages } = parsed as { e?: unknown; m?: unknown };
  return typeof expires === 'number' && expires * 1000 > Date.now() ? messages : undefined;
}
