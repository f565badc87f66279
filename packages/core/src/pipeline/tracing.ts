/**
 * Tern's `diagnostics_channel` tracing events, so APM agents and OpenTelemetry can follow each
 * request without patching Tern. One tracing channel, `tern.request` (Node names its channels
 * `tracing:tern.request:start`, `:end`, `:asyncStart`, `:asyncEnd`, `:error`), wraps the request's
 * chain: app middleware, route middleware and handler, or for an unmatched request the app
 * middleware around the routing error. Its context is a {@link RequestTraceContext}.
 *
 * A request asks five `hasSubscribers` flags and publishes nothing unless one is set, so an app
 * nobody instruments allocates nothing for tracing.
 */
import { tracingChannel } from 'node:diagnostics_channel';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { RouteInfo } from '../routing/route-info';
import type { Step } from './chain';

/**
 * The context object of every `tern.request` event. `start` runs the chain inside the stores
 * bound to it (`channel.start.bindStore(als, …)`), so an agent's context follows the handler.
 *
 * @example
 * import diagnostics_channel from 'node:diagnostics_channel';
 * diagnostics_channel.tracingChannel('tern.request').subscribe({
 *   start: (ctx) => console.log('start', ctx.request.id, ctx.route?.template),
 *   end: () => {},
 *   asyncStart: () => {},
 *   asyncEnd: (ctx) => console.log('answered', ctx.result?.statusCode),
 *   error: (ctx) => console.log('failed', ctx.error),
 * });
 */
export interface RequestTraceContext {
  request: TernRequest;
  response: TernResponse;
  /** The matched route (`template`, `rawPath`, `name`…); undefined for an unmatched request. */
  route?: RouteInfo;
  /** Set before `error`: what the chain threw (an `HTTPException` for 404s, 422s…). */
  error?: unknown;
  /** Set before `asyncEnd` when the chain answered: the response as handlers left it. */
  result?: TernResponse;
}

/** The name given to `diagnostics_channel.tracingChannel()`. */
export const REQUEST_TRACING_CHANNEL = 'tern.request';

const channels = tracingChannel<unknown, RequestTraceContext>(REQUEST_TRACING_CHANNEL);

/** True when somebody listens to any of the request's tracing events. */
export function tracingRequested(): boolean {
  return (
    channels.start.hasSubscribers ||
    channels.end.hasSubscribers ||
    channels.asyncStart.hasSubscribers ||
    channels.asyncEnd.hasSubscribers ||
    channels.error.hasSubscribers
  );
}

/** Runs `step` with the tracing events published around it. */
export function traceStep(step: Step, req: TernRequest, res: TernResponse): Promise<TernResponse> {
  const context: RequestTraceContext = { request: req, response: res, route: req.route as RouteInfo | undefined };
  return channels.tracePromise(step, context, undefined, req, res);
}
