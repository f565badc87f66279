/**
 * Socket routes served: at `ready()`, each socket route gets its `ws` server (its `maxPayload`)
 * and its message reader; a server's `upgrade` event (`app.upgradeHandler`, which `listen()`
 * gives its server) sends the request through the app's pipeline like any request, and a chain
 * that ends in the handshake's 101 completes the upgrade here. Any other answer (404, 401, a
 * middleware's refusal, the converter's 422) is written on the connection as a plain HTTP
 * response, which then closes.
 */
import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { WebSocketServer } from 'ws';
import type { MakeConfig } from '../config';
import { onFirstUse } from '../http/on-first-use';
import { RAW_RESPONSE, type TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import { forgetUpgrade, markUpgrade, upgradeOf } from '../http/upgrade';
import type { MatchedRoute } from '../http/matched-route';
import type { CompiledRoute } from '../routing/compile';
import type { SocketHandlers } from '../routing/socket-route';
import type { ModelClass, ModelCompiler } from '../validation/model-compiler';
import { compileStandardSchema, isStandardSchema } from '../validation/standard-schema';
import { runConnection, type ConnectionContext } from './connection';
import type { SocketHub } from './hub';
import { messageReader, type MessageReader } from './messages';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const wsLibrary = onFirstUse(() => require('ws') as typeof import('ws'));

interface ServedSocketRoute {
  readonly server: WebSocketServer;
  /** What each of the route's sockets shares: one object per route, not per socket. */
  readonly context: ConnectionContext;
}

export interface SocketServingOptions {
  readonly config: MakeConfig;
  readonly modelCompiler: ModelCompiler;
  readonly checkModel: (model: Function, where: string) => void;
  readonly report: (err: unknown, req: TernRequest) => void;
}

/** Headers middleware set on the handshake's response, added to the 101 (request id, cookies). */
const handshakeHeaders = new WeakMap<IncomingMessage, string[]>();

/**
 * The step that completes upgrades for the app's socket routes, or undefined when it has none.
 * Its `ws` servers are made here, once; `ws` itself is loaded only by an app with socket routes.
 */
export function serveSockets(routes: readonly CompiledRoute[], hub: SocketHub, options: SocketServingOptions): ((req: TernRequest, res: TernResponse) => boolean) | undefined {
  const served = new Map<MatchedRoute, ServedSocketRoute>();
  for (const route of routes) {
    if (!route.info.websocket) continue;
    const server = new (wsLibrary().WebSocketServer)({
      noServer: true,
      maxPayload: route.spec.maxPayload ?? hub.limits.maxPayload,
      // Compression costs memory per socket and opens the door to compression bombs.
      perMessageDeflate: false,
      clientTracking: false,
    });
    server.on('headers', (lines: string[], raw: IncomingMessage) => {
      const extra = handshakeHeaders.get(raw);
      if (extra !== undefined) lines.push(...extra);
    });
    served.set(route.info, { server, context: { hub, read: messageModelReader(route, options), report: options.report } });
  }
  if (served.size === 0) return undefined;
  return (req, res) => {
    const route = req.route === undefined ? undefined : served.get(req.route);
    const upgrade = upgradeOf(req.raw);
    if (route === undefined || upgrade?.accepted === undefined) return false;
    const handlers = upgrade.accepted as SocketHandlers<unknown, never>;
    const raw = res.raw;
    try {
      raw.detachSocket(upgrade.socket as Socket);
      hub.hold(upgrade.socket);
      handshakeHeaders.set(req.raw, headerLines(res, (err) => options.report(err, req)));
      route.server.handleUpgrade(req.raw, upgrade.socket, upgrade.head, (ws) => {
        switched(raw);
        // The socket lives for hours: it keeps the upgrade request, not what served the handshake.
        handshakeHeaders.delete(req.raw);
        forgetUpgrade(req.raw);
        req[RAW_RESPONSE] = undefined;
        runConnection(ws, upgrade.socket, req, handlers, route.context);
      });
    } catch (err) {
      // Runs where the pipeline writes answers: nothing may escape, and no half-made socket stays.
      options.report(err, req);
      upgrade.socket.destroy();
    }
    return true;
  };
}

function messageModelReader(route: CompiledRoute, options: SocketServingOptions): MessageReader | undefined {
  const model = route.spec.messageModel;
  if (model === undefined) return undefined;
  // A Standard Schema is validated by its own library, as a request body's is (it decides what undeclared keys do).
  if (isStandardSchema(model)) {
    return messageReader(compileStandardSchema(model), options.config.jsonDepthLimit, route.rawPath, options.config.debug);
  }
  options.checkModel(model, route.source);
  const forbidNonWhitelisted = (route.spec.forbidUnknownProperties ?? options.config.forbidUnknownProperties) === true;
  const validator = options.modelCompiler.compile(model as ModelClass, { forbidNonWhitelisted });
  return messageReader(validator, options.config.jsonDepthLimit, route.rawPath, options.config.debug);
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;
/** Headers the handshake itself writes (or that mean nothing on a 101). */
const HANDSHAKE_OWN = new Set(['connection', 'upgrade', 'content-length', 'content-type', 'transfer-encoding', 'sec-websocket-accept', 'sec-websocket-protocol', 'sec-websocket-extensions']);

/**
 * The response's headers as lines of the 101. `ws` writes them as given, so a value Node's
 * `setHeader` would refuse (a line break: header injection) is dropped and reported instead.
 */
function headerLines(res: TernResponse, report: (err: unknown) => void): string[] {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(res.headers)) {
    if (HANDSHAKE_OWN.has(name)) continue;
    for (const one of Array.isArray(value) ? value : [value]) {
      if (HEADER_NAME.test(name) && HEADER_VALUE.test(String(one))) lines.push(`${name}: ${String(one)}`);
      else report(new TypeError(`The header '${name}' cannot go on a WebSocket handshake: its name or value has characters HTTP does not allow.`));
    }
  }
  return lines;
}

/**
 * The 101 went out: the stand-in response says so (status 101, sent) and ends, so request logs,
 * `onResponse` hooks and metrics see the upgrade like any answer.
 */
function switched(raw: ServerResponse): void {
  raw.statusCode = 101;
  Object.defineProperty(raw, 'headersSent', { value: true });
  raw.emit('finish');
  raw.emit('close');
}

/**
 * Node hands the connection over without its error listener: a reset must not crash the process.
 * A function of its own, not a closure: a closure here would share the listener's scope and keep
 * the handshake's response alive as long as the socket.
 */
function destroyOnError(this: Duplex): void {
  this.destroy();
}

/**
 * Takes the connection of an upgrade request (a server's `upgrade` event) for the pipeline: the
 * socket and head bytes go beside the raw request, and the response the pipeline answers with is
 * written on the connection itself, as Fastify's websocket plugin does. `app.upgradeHandler` sends
 * it through the app's pipeline, or answers a failed startup on it.
 */
export function takeUpgrade(raw: IncomingMessage, socket: Duplex, head: Buffer, hub: SocketHub): ServerResponse {
  socket.on('error', destroyOnError);
  const res = new ServerResponse(raw);
  res.shouldKeepAlive = false;
  res.assignSocket(socket as Socket);
  // A refusal ends the connection once written (`Connection: close`).
  res.once('finish', () => {
    if (res.socket !== null) socket.end();
  });
  markUpgrade(raw, { socket, head, refusal: () => hub.refusal() });
  return res;
}
