/**
 * `namedShape(name, shape)`: a `{ field: Type }` response shape documented once, as a component
 * of its own, and referred to by `$ref` wherever it is used.
 */
import { TernTypeError } from '../../errors';

const NAME = Symbol('tern.shapeName');

/**
 * Gives a response shape a component name: the document lists it under
 * `components.schemas[name]` and every route that answers with it refers to it by `$ref`. It is
 * filtered exactly as the unnamed shape is. The shape itself is returned, marked.
 *
 * @example
 * const Page = namedShape('Page', { items: [Item], total: Integer });
 * app.get('/items', { responses: { 200: Page } }, list); // { $ref: '#/components/schemas/Page' }
 */
export function namedShape<T extends object>(name: string, shape: T): T {
  if (typeof name !== 'string' || !/^[A-Za-z0-9._-]+$/.test(name)) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `namedShape: the name must be letters, digits, '.', '_' or '-'; got ${JSON.stringify(name)}.`);
  }
  if (typeof shape !== 'object' || shape === null || Array.isArray(shape) || Object.getPrototypeOf(shape) !== Object.prototype) {
    throw new TernTypeError('TERN_INVALID_ARGUMENT', `namedShape('${name}', shape): the shape must be an object literal such as { id: Number }.`);
  }
  Object.defineProperty(shape, NAME, { value: name, enumerable: false });
  return shape;
}

/** The name `namedShape` gave a shape, if any. */
export function shapeName(shape: object): string | undefined {
  const name = (shape as { [NAME]?: unknown })[NAME];
  return typeof name === 'string' ? name : undefined;
}
