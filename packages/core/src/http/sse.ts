import { Readable } from 'node:stream';
import { TernRangeError, TernTypeError } from '../errors';
import { closeIterable, type StreamBody } from './stream-body';

/**
 * One server-sent event. `data` is sent as is when a string, as JSON otherwise; a multi-line
 * string becomes several `data:` lines (the browser joins them back with `\n`).
 *
 * @example
 * const event: ServerSentEvent = { event: 'price', id: '42', data: { symbol: 'TRN', price: 12.5 } };
 */
export interface ServerSentEvent {
  data?: unknown;
  /** The event type (`addEventListener(type)` in the browser); no CR or LF. */
  event?: string;
  /** Becomes the client's last event ID, sent back as `Last-Event-ID` when it reconnects; no CR, LF or NUL. */
  id?: string | number;
  /** How long the client waits before reconnecting, in ms (a non-negative integer). */
  retry?: number;
}

/**
 * Options of `res.sse()`.
 *
 * @example
 * res.sse(events(), { heartbeat: 15_000, signal: AbortSignal.timeout(60_000) });
 */
export interface SseOptions {
  /** Sends a `: ping` comment every this many ms, so proxies keep an idle stream open. */
  heartbeat?: number;
  /** Ends the stream (normally, as if the events ran out) when this signal aborts. */
  signal?: AbortSignal;
}

const LINE_BREAK = /\r\n|\r|\n/;

/**
 * The bytes of one event, exactly: fields, one `data:` line per line of data, then a blank line.
 * CR and LF in `event` or `id` would let a value inject fields of its own: they are refused with
 * a `TernTypeError`, which fails the stream (the connection is cut and the error reported).
 *
 * @example
 * formatEvent({ event: 'note', data: 'a\nb' }); // 'event: note\ndata: a\ndata: b\n\n'
 * formatEvent('hello');                         // 'data: hello\n\n'
 */
export function formatEvent(event: ServerSentEvent | string): string {
  if (typeof event === 'string') return dataLines(event) + '\n';
  if (event === null || typeof event !== 'object') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.sse(): each event must be a string or an object { data, event?, id?, retry? }.');
  }
  let frame = '';
  if (event.event !== undefined) frame += `event: ${fieldValue(event.event, 'event')}\n`;
  if (event.id !== undefined) {
    const id = fieldValue(event.id, 'id');
    if (id.includes('\0')) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.sse(): an event id cannot contain NUL.');
    frame += `id: ${id}\n`;
  }
  if (event.retry !== undefined) {
    if (!Number.isInteger(event.retry) || event.retry < 0) {
      throw new TernRangeError('TERN_INVALID_LIMIT', `res.sse(): retry must be a non-negative integer of ms, got ${String(event.retry)}.`);
    }
    frame += `retry: ${event.retry}\n`;
  }
  if (event.data !== undefined) frame += dataLines(typeof event.data === 'string' ? event.data : (JSON.stringify(event.data) ?? 'null'));
  return frame + '\n';
}

function dataLines(text: string): string {
  let out = '';
  for (const line of text.split(LINE_BREAK)) out += `data: ${line}\n`;
  return out;
}

function fieldValue(value: unknown, name: string): string {
  const text = String(value);
  if (text.includes('\n') || text.includes('\r')) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `res.sse(): an event's ${name} cannot contain CR or LF.`);
  }
  return text;
}

/** Checks `res.sse()` arguments at the call and records the body. */
export function sseBody(events: AsyncIterable<ServerSentEvent | string>, options: SseOptions = {}): StreamBody {
  if (events === null || typeof events !== 'object' || typeof events[Symbol.asyncIterator] !== 'function') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'res.sse() expects an async iterable of events (an async generator, for instance).');
  }
  const { heartbeat, signal } = options;
  if (heartbeat !== undefined && (!Number.isInteger(heartbeat) || heartbeat <= 0)) {
    throw new TernRangeError('TERN_INVALID_LIMIT', `res.sse(): heartbeat must be a positive integer of ms, got ${String(heartbeat)}.`);
  }
  return {
    open: (closing) => new EventStream(events, heartbeat, signal ? [signal, closing] : [closing]),
    discard: () => closeIterable(events),
    flushHeaders: true,
  };
}

/**
 * Pulls one event per read, so a slow client slows the producer down. Destroyed (the client went
 * away, or the write failed) it calls the iterator's `return()`, which runs a generator's
 * `finally` blocks; an aborted signal ends it normally, with the same cleanup.
 */
class EventStream extends Readable {
  private readonly source: AsyncIterator<ServerSentEvent | string>;
  private readonly timer?: NodeJS.Timeout;
  private pulling = false;
  private done = false;
  private readonly onAbort = () => this.finish(true);

  constructor(
    events: AsyncIterable<ServerSentEvent | string>,
    heartbeat: number | undefined,
    private readonly signals: AbortSignal[],
  ) {
    super();
    this.source = events[Symbol.asyncIterator]();
    if (heartbeat !== undefined) this.timer = setInterval(() => this.push(': ping\n\n'), heartbeat);
    for (const signal of signals) signal.addEventListener('abort', this.onAbort, { once: true });
    if (signals.some((signal) => signal.aborted)) queueMicrotask(this.onAbort);
  }

  override _read(): void {
    if (this.pulling || this.done) return;
    this.pulling = true;
    this.source.next().then(
      (result) => {
        this.pulling = false;
        if (this.done) return;
        if (result.done) return this.finish(false);
        let frame: string;
        try {
          frame = formatEvent(result.value);
        } catch (err) {
          this.destroy(err as Error);
          return;
        }
        this.push(frame);
      },
      (err: unknown) => {
        this.pulling = false;
        this.destroy(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.stop(true);
    callback(err);
  }

  /** The events ran out (`cleanup` false) or a signal ended the stream early (true). */
  private finish(cleanup: boolean): void {
    if (this.done) return;
    this.stop(cleanup);
    this.push(null);
  }

  private stop(cleanup: boolean): void {
    if (this.timer) clearInterval(this.timer);
    for (const signal of this.signals) signal.removeEventListener('abort', this.onAbort);
    if (this.done) return;
    this.done = true;
    if (cleanup) void Promise.resolve(this.source.return?.()).catch(() => {});
  }
}
