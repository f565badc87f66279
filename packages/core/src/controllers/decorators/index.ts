export { Controller } from './controller';
export { Get, Post, Put, Patch, Delete, Head, Options, Route } from './methods';
export type { MethodRouteOptions } from './methods';
export { Security, Public } from './security';
export { Deprecated, Tags, Summary, Description, OperationId, ApiResponse, ExcludeFromSchema } from './docs';
export { UseMiddleware } from './middleware';
export { Param, Query, Body, Header, Cookie, Req, Res, User } from './params';
export type { ClassOrMethodDecorator, RouteMethodDecorator } from './targets';
