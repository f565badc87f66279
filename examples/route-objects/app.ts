/**
 * Declaring routes as `Routes` objects: handy for route factories and for testing a route's
 * pattern on its own with `route.match`.
 */
import { IsInt, IsString, Max, Min } from 'class-validator';
import { Routes, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

export class CreateBook {
  @IsString() title: string;
  @IsInt() @Min(1450) @Max(2100) year: number;
}

export class Book {
  @IsInt() id: number;
  @IsString() title: string;
  @IsInt() year: number;
}

const books: Book[] = [{ id: 1, title: 'The Pragmatic Programmer', year: 1999 }];

/** A route factory: a plain function that builds one `Routes` per resource, so resources share one shape. */
function listRoute(resource: string, items: () => unknown[]): Routes {
  return new Routes({
    path: `/${resource}`,
    methods: ['GET'],
    name: `${resource}.list`,
    summary: `List ${resource}`,
    description: `Every one of the ${resource}.`,
    tags: [resource],
    responses: { 200: [Book] },
    handler: async () => items(),
  });
}

export const bookRoute = new Routes({
  path: '/books/{id:int}',
  methods: ['GET'],
  name: 'books.get',
  summary: 'Get a book',
  description: 'One book by its id.',
  tags: ['books'],
  responses: { 200: Book, 404: { description: 'No such book' } },
  handler: async (req, res, { id }) => books.find((book) => book.id === id) ?? res.json({ message: 'not found' }, 404),
});

export const createBookRoute = new Routes({
  path: '/books',
  methods: ['POST'],
  summary: 'Add a book',
  description: 'Adds a book; the year must be between 1450 and 2100.',
  tags: ['books'],
  requestModel: CreateBook,
  statusCode: 201,
  responses: { 201: Book },
  handler: async (req) => {
    const input = req.body as CreateBook;
    const book = { id: books.length + 1, ...input };
    books.push(book);
    return book;
  },
});

export function buildApp(): TernApp {
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Books (Routes objects)',
      description: 'Books declared as `Routes` objects, added to the app one by one.',
      tags: [{ name: 'books', description: 'The book shelf.' }],
    }),
  });
  app.addRoute(listRoute('books', () => books));
  app.addRoute(bookRoute);
  app.addRoute(createBookRoute);
  return app;
}
