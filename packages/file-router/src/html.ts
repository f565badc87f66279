import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Environment, runtime, type ILoader } from 'nunjucks';
import { assetUrl, PAGE_HANDLER, setTemplateRenderer, TernError, TernResponse, TernTypeError, type Handler, type TernRequest } from '@tern/core';
import { carryRouteOptions } from './mark-as-route';
import { assertTemplateName, ConfinedLoader } from './template-loader';
import { LIVE_RELOAD_SCRIPT } from './dev/live-reload';

/** The options of `configureTemplates`: where templates live and whether edits are picked up without a restart. */
export interface TemplateOptions {
  /** Directory the template names are resolved in; relative paths resolve against `process.cwd()`. */
  templateDir: string;
  /** Re-read templates from disk on every render, so edits show without a restart. Off by default: keep it off in production. */
  autoReload?: boolean;
}

/**
 * Sets up nunjucks for `res.render` and `render()`: HTML autoescaping on, undefined variables
 * rendered as empty text, template names confined to `templateDir`. Call it once at startup
 * (a later call replaces the earlier setup); it returns the nunjucks `Environment`, for filters
 * and globals.
 *
 * @example
 * const env = configureTemplates({ templateDir: path.join(__dirname, 'templates'), autoReload: process.env.NODE_ENV !== 'production' });
 * env.addFilter('shout', (s: string) => s.toUpperCase());
 */
export function configureTemplates(options: TemplateOptions): Environment {
  if (typeof options !== 'object' || options === null || typeof options.templateDir !== 'string') {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', 'configureTemplates({ templateDir, autoReload }): templateDir must be a directory path.');
  }
  const templateDir = resolve(options.templateDir);
  let isDirectory = false;
  try {
    isDirectory = statSync(templateDir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDirectory) {
    throw new TernError('TERN_TEMPLATE_DIR_NOT_FOUND', `configureTemplates: templateDir '${templateDir}' is not a directory.`);
  }
  const loader = new ConfinedLoader(templateDir, options.autoReload === true);
  // nunjucks' types want its own Loader class; any object with a synchronous getSource will do.
  const env = new Environment(loader as unknown as ILoader, { autoescape: true, throwOnUndefined: false });
  env.addGlobal('csrfField', csrfField);
  // {{ asset('css/site.css') }}: the fingerprinted URL of a static file (serveStatic { fingerprint: true }).
  env.addGlobal('asset', assetUrl);
  const reload = liveReloadTag();
  const renderPage = reload === undefined ? renderTemplate : (on: Environment, name: string, context: Record<string, unknown>) => withLiveReload(renderTemplate(on, name, context), reload);
  setTemplateRenderer((name, context) => renderPage(env, name, context), { has: (name) => loader.has(name) });
  configured = loader;
  return env;
}

/**
 * Under `@tern/file-router/dev`'s loop (`TERN_LIVE_RELOAD` names its server), the script tag
 * that makes pages reload when the loop says so; never in production.
 */
function liveReloadTag(): string | undefined {
  const origin = process.env.NODE_ENV === 'production' ? undefined : process.env.TERN_LIVE_RELOAD;
  if (origin === undefined || !/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) return undefined;
  return `<script src="${origin}${LIVE_RELOAD_SCRIPT}"></script>`;
}

/** The tag goes before `</body>` when the page has one, else at the end. */
function withLiveReload(html: string, tag: string): string {
  const end = html.lastIndexOf('</body>');
  return end === -1 ? html + tag : html.slice(0, end) + tag + html.slice(end);
}

/** The loader of the last `configureTemplates`, for checking template names known at startup. */
let configured: ConfinedLoader | undefined;

/**
 * Throws `TERN_TEMPLATE_NOT_FOUND` when templates are configured and `name` is not one of them,
 * so `render('abuot.html')` fails startup instead of every request. Without templates configured
 * yet it checks nothing (the name's form was checked already).
 */
export function assertTemplateKnown(name: string, where: string): void {
  if (configured && !configured.has(name)) {
    throw new TernError('TERN_TEMPLATE_NOT_FOUND', `${where}: there is no template '${name}' in ${configured.templateDir}.`);
  }
}

/**
 * The template global behind `{{ csrfField() }}`: the hidden input carrying the token `csrf()`
 * put in `res.locals`. nunjucks calls globals with the render context as `this`.
 */
function csrfField(this: { ctx?: Record<string, unknown> }): runtime.SafeString {
  const token = this.ctx?.csrfToken;
  const field = this.ctx?.csrfFieldName ?? '_csrf';
  if (typeof token !== 'string') {
    throw new TernError('TERN_TEMPLATE_ERROR', 'csrfField() needs a CSRF token: add app.addMiddleware(csrf()), before any middleware whose errors render pages.');
  }
  return new runtime.SafeString(`<input type="hidden" name="${escapeAttribute(String(field))}" value="${escapeAttribute(token)}">`);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function renderTemplate(env: Environment, name: string, context: Record<string, unknown>): string {
  assertTemplateName(name);
  try {
    return env.render(name, context);
  } catch (err) {
    if (err instanceof TernError) throw err;
    // nunjucks messages name the template, line and column; they reach a response only in debug mode.
    throw new TernError('TERN_TEMPLATE_ERROR', `Template '${name}' failed to render: ${(err as Error)?.message ?? String(err)}`, { cause: err });
  }
}

/** A handler's parameters when its path is not a literal (core's `Handler` default). */
type DefaultParams = Parameters<Handler>[2];

/** A handler whose result becomes a template context. */
export type ContextHandler<P = DefaultParams> = (req: TernRequest<P>, res: TernResponse, params: P) => Promise<object>;

/**
 * Wraps a handler so the object it returns is rendered with `template` and sent as
 * `text/html; charset=utf-8` (with the route's `statusCode`, 200 by default). A response returned
 * instead (a redirect, `res.render` of another page) is sent as it is; anything else that is not
 * an object is a 500. Works on any route, in route files or not, and keeps `markAsRoute` options.
 *
 * @example
 * export const get = render('post.html', async (req) => ({ post: await posts.find(req.pathParams.slug) }));
 */
export function render<P = DefaultParams>(template: string, handler: ContextHandler<P>): Handler<P> {
  assertTemplateName(template);
  assertTemplateKnown(template, `render('${template}')`);
  if (typeof handler !== 'function') throw new TernTypeError('TERN_INVALID_HANDLER', `render('${template}', handler): handler must be a function.`);
  const rendered: Handler<P> = async (req, res, params) => {
    const context: unknown = await handler(req, res, params);
    if (context instanceof TernResponse) return context;
    if (typeof context !== 'object' || context === null || Array.isArray(context)) {
      throw new TernError(
        'TERN_TEMPLATE_CONTEXT_INVALID',
        `render('${template}'): the handler returned ${describe(context)}; return an object to use as the template context, or a response.`,
      );
    }
    const statusCode = res.statusCode === 200 ? req.route?.statusCode : undefined;
    return res.render(template, context as Record<string, unknown>, statusCode);
  };
  // A page: its errors become HTML error pages for browsers; FileRouter checks the name at startup.
  Object.defineProperty(rendered, PAGE_HANDLER, { value: true });
  Object.defineProperty(rendered, RENDERED_TEMPLATE, { value: template });
  return carryRouteOptions(handler, rendered);
}

const RENDERED_TEMPLATE = Symbol.for('tern.fileRouter.renderedTemplate');

/** The template a `render()` handler renders, if the value is one. */
export function renderedTemplateOf(value: unknown): string | undefined {
  return typeof value === 'function' ? (value as unknown as Record<symbol, string | undefined>)[RENDERED_TEMPLATE] : undefined;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}
