export { FileRouter } from './file-router';
export type { FileRouterOptions } from './file-router';
export { markAsRoute } from './mark-as-route';
export type { FileRouteHandler, MarkAsRouteOptions } from './mark-as-route';
export { configureTemplates, render } from './html';
export { FormError } from './form-error';
export type { ContextHandler, TemplateOptions } from './html';
