export { Routes } from './routes';
export type { RouteDefinition, RouteMatchResult } from './routes';
export { Router } from './router';
export type { RouterOptions } from './router';
export { Group } from './group';
export { routesFromConfig } from './from-config';
export type { RouteConfigEntry } from './from-config';
export type { GroupOptions } from './group';
export { SocketRoutes } from './socket-route';
export type { SocketHandlers, SocketOptions, SocketSource, TernSocket } from './socket-route';
export { RouteConflictError } from '../errors/tern-error';
export type { Declaration } from './router';
export type { RouteInfo, RouteParamInfo, RouteModelInfo, UploadField, HandlerInput } from './route-info';
export { ROUTE_OPTION_NAMES, NOT_IN_ROUTE_FILES } from './route-options';
export type { RouteOptionName, RouteSpec } from './route-options';
export type { MatchedRoute } from '../http/matched-route';
export type { PathParams } from './params';
export type {
  Handler,
  RouteHandler,
  HandlerResult,
  Middleware,
  MiddlewareEntry,
  NodeListener,
  ResponseSchema,
  ResponseShape,
  RouteOptions,
  RateLimitOptions,
  SecurityRequirement,
} from './types';
