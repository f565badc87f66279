/**
 * An HTTP upgrade request on its way through the pipeline: the socket and the bytes read past its
 * headers, kept beside the raw request so that the socket route's handshake step (routing) and the
 * step that completes the upgrade (realtime) find them without either knowing the other.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/** What the server's `upgrade` event gave for one request, and what the handshake decided. */
export interface PendingUpgrade {
  readonly socket: Duplex;
  readonly head: Buffer;
  /** Why the app cannot take another socket now (closing, or at its connection cap); undefined when it can. Asked by the handshake step, after the middleware ran. */
  readonly refusal: () => 'closing' | 'full' | undefined;
  /** What the route's handshake resolved: its handlers, for the step that completes the upgrade. */
  accepted?: unknown;
}

const pending = new WeakMap<IncomingMessage, PendingUpgrade>();

/** Records `raw` as an upgrade request; the pipeline then serves it like any other request. */
export function markUpgrade(raw: IncomingMessage, upgrade: PendingUpgrade): void {
  pending.set(raw, upgrade);
}

/** The upgrade `raw` asks for, when it came through the server's `upgrade` event. */
export function upgradeOf(raw: IncomingMessage): PendingUpgrade | undefined {
  return pending.get(raw);
}

/** The upgrade is done (or failed): its record goes, so an open socket does not keep the head bytes and handlers twice. */
export function forgetUpgrade(raw: IncomingMessage): void {
  pending.delete(raw);
}

/** The status a socket route's handshake leaves on the response: the upgrade may go ahead. */
export const SWITCHING_PROTOCOLS = 101;
