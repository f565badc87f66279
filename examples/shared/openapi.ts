import type { OpenAPIOptions } from '@tern/core';

/** What every example's document shares: who publishes it, its license, the server serving it. */
const SHARED = {
  version: '1.0.0',
  contact: { name: 'Tern examples', url: 'https://example.org/tern' },
  license: { name: 'MIT', identifier: 'MIT' },
  servers: [{ url: '/', description: 'The server that serves this document' }],
} satisfies OpenAPIOptions;

/**
 * An example app's OpenAPI options: its own title, description and tags over what every example
 * shares (the contact, license and server a linted document needs).
 *
 * @example
 * new TernApp({ openapi: exampleOpenAPI({ title: 'Todos', description: 'A todo list.', tags: [{ name: 'todos' }] }) });
 */
export function exampleOpenAPI(own: OpenAPIOptions): OpenAPIOptions {
  return { ...SHARED, ...own };
}
