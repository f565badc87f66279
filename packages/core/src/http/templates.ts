import { TernError } from '../errors';

/** Renders a named template with a context to HTML; installed by `configureTemplates`. */
export type TemplateRenderer = (template: string, context: Record<string, unknown>) => string;

let renderer: TemplateRenderer | undefined;

/**
 * Installs the function behind `res.render`. `@tern/file-router`'s `configureTemplates` calls it;
 * another engine can be plugged in the same way.
 *
 * @example
 * setTemplateRenderer((name, ctx) => myEngine.render(name, ctx));
 */
export function setTemplateRenderer(next: TemplateRenderer | undefined): void {
  renderer = next;
}

export function renderTemplate(template: string, context: Record<string, unknown>): string {
  if (!renderer) {
    throw new TernError('TERN_TEMPLATES_NOT_CONFIGURED', `Cannot render '${template}': call configureTemplates() first.`);
  }
  return renderer(template, context);
}
