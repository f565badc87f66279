/**
 * `Integer`: a whole number in a `{ field: Type }` response shape, where `Number` says any number.
 */

/**
 * Stands for a whole number in a response shape: documented `{ type: 'integer' }`, written as
 * `Number` is. (In a model class, `@IsInt()` says the same.) It is a marker, never constructed.
 *
 * @example
 * const Page = { items: [Item], total: Integer };
 * app.get('/items', { responses: { 200: Page } }, list); // total: { type: 'integer' }
 */
export abstract class Integer {
  private constructor() {}
}
