import { TernError } from '../errors';

/** Renders a named template with a context to HTML; installed by `configureTemplates`. */
export type TemplateRenderer = (template: string, context: Record<string, unknown>) => string;

/**
 * What a renderer can say about its templates besides rendering them.
 *
 * @example
 * const options: TemplateRendererOptions = { has: (name) => existsSync(join(templateDir, name)) };
 * setTemplateRenderer(render, options);
 */
export interface TemplateRendererOptions {
  /**
   * Whether a template of this name exists. With it, `ready()` refuses the template names an app
   * declares (`errorPages`, a route's `formTemplate`) that do not, instead of each page request
   * failing later.
   */
  has?: (template: string) => boolean;
}

let renderer: TemplateRenderer | undefined;
let knows: ((template: string) => boolean) | undefined;

/**
 * Installs the function behind `res.render`. `@tern/file-router`'s `configureTemplates` calls it;
 * another engine can be plugged in the same way, with `has` so that startup can check names.
 *
 * @example
 * setTemplateRenderer((name, ctx) => myEngine.render(name, ctx), { has: (name) => myEngine.exists(name) });
 */
export function setTemplateRenderer(next: TemplateRenderer | undefined, options: TemplateRendererOptions = {}): void {
  renderer = next;
  knows = next === undefined ? undefined : options.has;
}

/** False only when the installed renderer says there is no such template; true when it cannot tell. */
export function mayBeTemplate(template: string): boolean {
  return knows === undefined || knows(template);
}

/**
 * Marks a handler whose answer is an HTML page (`@tern/file-router`'s `render()` sets it). Tern
 * reads it at startup: a page route's errors become HTML error pages for browsers, and a path
 * value its converter rejects is a 404 there rather than a 422. `Symbol.for`, so a second copy of
 * a package still agrees.
 *
 * @example
 * const page: Handler = Object.assign(async (req, res) => res.html(await renderPage(req)), { [PAGE_HANDLER]: true });
 */
export const PAGE_HANDLER = Symbol.for('tern.pageHandler');

export function renderTemplate(template: string, context: Record<string, unknown>): string {
  if (!renderer) {
    throw new TernError('TERN_TEMPLATES_NOT_CONFIGURED', `Cannot render '${template}': call configureTemplates() first.`);
  }
  return renderer(template, context);
}
