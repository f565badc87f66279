/**
 * Request bodies beyond JSON: avatar uploads held in memory within limits, a CSV import streamed
 * part by part or as the raw body, a feedback form validated like JSON, a webhook checked against
 * the raw bytes, and photo uploads in a controller (photos.controller.ts).
 */
import 'reflect-metadata';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { IsEmail, IsIn, IsInt, IsString, IsUUID, MaxLength } from 'class-validator';
import { HTTPException, Integer, MakeConfig, Nullable, TernApp } from '@tern/core';
import { PhotosController } from './photos.controller';
import { exampleOpenAPI } from '../shared/openapi';

export const WEBHOOK_SECRET = 'example-secret';
const AVATAR_TYPES = ['image/png', 'image/jpeg'];

export class Feedback {
  @IsEmail() email: string;
  @IsIn(['bug', 'idea', 'praise']) kind: string;
  @IsString() @MaxLength(2000) message: string;
}

// What the routes answer: documented, so a generated client gets real types (docs/client.md).

export class AvatarCreated {
  @IsUUID() id: string;
  @IsInt() size: number;
  @IsString() type: string;
  /** The form's `alt` field, or null when none was sent. */
  @Nullable() @IsString() alt: string | null;
}

const AVATAR = { id: String, originalName: String, type: String, size: Integer };

/** Rows counted per uploaded file name. */
export class ImportCounts {
  @IsInt({ each: true }) counts: Map<string, number>;
}

interface StoredAvatar {
  id: string;
  /** Kept for display only: a client's file name is never used as a path. */
  originalName: string;
  type: string;
  bytes: Buffer;
}

export function buildApp(): TernApp {
  // JSON and form bodies stay under 64 KiB; multipart uploads may take 2 MiB, and the raw CSV
  // route sets its own limit (docs/uploads.md, "Per-route limits").
  const app = new TernApp({
    config: new MakeConfig({ bodyLimit: 64 * 1024, multipartLimit: 2 * 1024 * 1024 }),
    openapi: exampleOpenAPI({
      title: 'Uploads',
      description: 'Avatars, CSV imports, a form and a signed webhook: bodies beyond JSON.',
      tags: [{ name: 'avatars', description: 'Profile images.' }, { name: 'imports', description: 'CSV files counted as they stream.' }, { name: 'feedback', description: 'A form or JSON.' }, { name: 'webhooks', description: 'Signed callbacks.' }, { name: 'photos', description: 'Uploads through controller decorators.' }],
    }),
  });
  const avatars = new Map<string, StoredAvatar>();

  app.post('/avatars', { statusCode: 201, summary: 'Upload an avatar', description: 'A PNG or JPEG of at most 256 KiB in the multipart field `avatar`.', tags: ['avatars'], consumes: ['multipart/form-data'], responses: { 201: AvatarCreated }, problems: { 422: "No image in the field 'avatar'" } }, async (req) => {
    const { fields, files } = await req.multipart({ limits: { fileSize: 256 * 1024, files: 1, fields: 2 } });
    const [file] = files;
    if (!file || file.fieldName !== 'avatar') throw new HTTPException(422, "Send the image in the field 'avatar'.");
    if (!AVATAR_TYPES.includes(file.mimeType)) throw new HTTPException(415, `Avatars are ${AVATAR_TYPES.join(' or ')}, not ${file.mimeType}.`);
    const id = randomUUID();
    avatars.set(id, { id, originalName: file.filename, type: file.mimeType, bytes: file.buffer });
    return { id, size: file.size, type: file.mimeType, alt: typeof fields.alt === 'string' ? fields.alt : null };
  });

  app.get('/avatars/{id:uuid}', { summary: 'Describe an avatar', description: 'The stored avatar’s name, type and size.', tags: ['avatars'], responses: { 200: AVATAR }, problems: { 404: 'No such avatar' } }, async (_req, _res, { id }) => {
    const avatar = avatars.get(id);
    if (!avatar) throw new HTTPException(404, `No avatar ${id}`);
    return { id, originalName: avatar.originalName, type: avatar.type, size: avatar.bytes.length };
  });

  // A large CSV is counted as it arrives: nothing is held but the current chunk.
  app.post('/imports', { summary: 'Count CSV rows', description: 'Counts the rows of each uploaded CSV file as it streams.', tags: ['imports'], consumes: ['multipart/form-data'], responses: { 200: ImportCounts } }, async (req) => {
    const counts: Record<string, number> = {};
    for await (const part of req.parts({ limits: { fileSize: 1024 * 1024, files: 5 } })) {
      if (part.type !== 'file') continue;
      let rows = 0;
      for await (const chunk of part.stream) for (const byte of chunk as Buffer) if (byte === 0x0a) rows++;
      counts[part.filename] = rows;
    }
    return { counts };
  });

  // The same count over a raw body (`curl -T rows.csv`): req.stream() hands over the bytes as they arrive.
  app.put('/imports/raw', { summary: 'Count rows of a raw CSV body', description: 'Counts the rows of a CSV sent as the whole body.', tags: ['imports'], bodyLimit: 2 * 1024 * 1024, responses: { 200: { rows: Integer } } }, async (req) => {
    let rows = 0;
    for await (const chunk of req.stream()) for (const byte of chunk as Buffer) if (byte === 0x0a) rows++;
    return { rows };
  });

  // An HTML form posts here; so may a script sending JSON. Both are validated by the model.
  app.post(
    '/feedback',
    { summary: 'Send feedback', description: 'From an HTML form or JSON; validated by the Feedback model.', tags: ['feedback'], requestModel: Feedback, consumes: ['application/x-www-form-urlencoded', 'application/json'], statusCode: 201, responses: { 201: { received: Feedback } } },
    async (req) => ({ received: req.body }),
  );

  // A signature is computed over the exact bytes sent, so the body is read raw.
  app.post('/webhooks/payments', { summary: 'Payment webhook', description: 'Checks the HMAC signature over the raw body before reading it.', tags: ['webhooks'], responses: { 200: { accepted: String } }, problems: { 400: 'Not a JSON object with a string event', 401: 'Bad signature' } }, async (req) => {
    const raw = await req.buffer();
    const expected = createHmac('sha256', WEBHOOK_SECRET).update(raw).digest();
    const given = Buffer.from(req.headers.get('x-signature') ?? '', 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new HTTPException(401, 'Bad signature');
    // Signed is not well-formed: an empty body (its signature is easy to compute) or any other
    // JSON is the sender's error, a 400, never a 500 from JSON.parse.
    return { accepted: webhookEvent(raw) };
  });

  app.registerControllers([new PhotosController()]);
  return app;
}

/** The `event` of a webhook body: a JSON object whose `event` is a string, else a 400. */
function webhookEvent(raw: Buffer): string {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HTTPException(400, 'The body is not JSON.');
  }
  const event = (body as { event?: unknown } | null)?.event;
  if (typeof body !== 'object' || Array.isArray(body) || typeof event !== 'string') throw new HTTPException(400, 'The body is not a JSON object with a string event.');
  return event;
}
