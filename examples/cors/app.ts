/**
 * CORS and compression: a browser app on https://app.example (and preview deployments under
 * *.preview.example) may call this API with cookies; every answer over 1 KiB is gzip- or
 * brotli-compressed when the client accepts it.
 */
import { compress, cors, HTTPException, TernApp } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

export const FRONTEND = 'https://app.example';

interface Note {
  id: number;
  text: string;
}

export function buildApp(): TernApp {
  const notes: Note[] = Array.from({ length: 50 }, (_, i) => ({ id: i + 1, text: `Note number ${i + 1}: remember the milk.` }));
  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Notes (CORS and compression)',
      description: 'A notes API a browser app on another origin calls with cookies; large answers are compressed.',
      tags: [{ name: 'notes', description: 'Short notes, readable cross-origin.' }],
    }),
  });

  // Outermost, so every answer (404s and 500s included) carries the CORS headers.
  app.addMiddleware(
    cors({
      origin: [FRONTEND, /^https:\/\/[a-z0-9-]+\.preview\.example$/],
      credentials: true,
      allowedHeaders: ['Content-Type', 'X-Request-Id'],
      exposedHeaders: ['X-Total-Count'],
      maxAge: 600,
    }),
  );
  app.addMiddleware(compress({ threshold: 1024 }));

  app.get('/notes', { summary: 'List notes', description: 'Every note; `X-Total-Count` (exposed to browsers) says how many.', tags: ['notes'] }, async (req, res) => res.setHeader('X-Total-Count', notes.length).json(notes));
  app.get('/notes/{id:int}', { summary: 'Get a note', description: 'One note by its id.', tags: ['notes'], responses: { 200: { id: Number, text: String } }, problems: { 404: 'No such note' } }, async (req, res, { id }) => {
    const note = notes.find((n) => n.id === id);
    if (!note) throw new HTTPException(404, `No note ${id}`);
    return note;
  });
  app.post('/notes', { summary: 'Create a note', description: 'Adds a note; the body is `{ "text": "…" }`.', tags: ['notes'], statusCode: 201, consumes: ['application/json'], responses: { 201: { id: Number, text: String } }, problems: { 422: 'text is not a string' } }, async (req, res) => {
    const { text } = (await req.json()) as { text?: unknown };
    if (typeof text !== 'string') throw new HTTPException(422, 'text must be a string');
    const note = { id: notes.length + 1, text };
    notes.push(note);
    return res.json(note, 201);
  });
  return app;
}
