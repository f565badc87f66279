/**
 * Another validation library behind Tern's `ModelCompiler` seam. Here a few lines of "fields"
 * declarations stand for it (zod, TypeBox or an in-house schema library plug in the same way):
 * a model is a class with a static `fields` table and no class-validator decorator at all.
 *
 * One compiler object serves every part of Tern that reads a model: `compile` validates request
 * bodies (once per route, at startup), and `describe` tells the OpenAPI document which properties
 * a model has and which of them a declared response may send. A stored note's internal fields
 * never leave the server, because `NoteDto` does not list them.
 */
import 'reflect-metadata';
import {
  HTTPException,
  TernApp,
  type ModelClass,
  type ModelCompiler,
  type ModelValidator,
  type PropertyDescription,
  type ValidationIssue,
} from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** One field of a model, as the "library" declares it. */
interface Field {
  type: typeof String | typeof Number | typeof Boolean;
  optional?: boolean;
  /** Strings: at least this many characters. */
  minLength?: number;
  /** A map: a JSON object whose every value is `type` (told to Tern as `record` in describe()). */
  map?: boolean;
}

/** A model of the "library": a class with a static table of its fields. */
type FieldModel = ModelClass & { fields: Record<string, Field> };

export class CreateNote {
  static fields: Record<string, Field> = {
    title: { type: String, minLength: 1 },
    body: { type: String },
    pinned: { type: Boolean, optional: true },
    labels: { type: String, map: true, optional: true },
  };
}

export class NoteDto {
  static fields: Record<string, Field> = {
    id: { type: Number },
    title: { type: String },
    body: { type: String },
    pinned: { type: Boolean },
    labels: { type: String, map: true },
  };
}

const TYPE_NAMES = new Map<Function, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
]);

function fieldsOf(model: ModelClass): Record<string, Field> {
  return (model as FieldModel).fields ?? {};
}

/** Validates a body against a model's fields: wrong types, missing fields, unknown fields. */
function validatorFor<T extends object>(model: ModelClass<T>, forbidUnknown: boolean): ModelValidator<T> {
  const fields = Object.entries(fieldsOf(model));
  const validate = (input: unknown) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { ok: false as const, errors: [{ path: '', message: 'the body must be a JSON object' }] };
    }
    const errors: ValidationIssue[] = [];
    const value: Record<string, unknown> = {};
    for (const [name, field] of fields) {
      const given = (input as Record<string, unknown>)[name];
      if (given === undefined) {
        if (!field.optional) errors.push({ path: name, message: `${name} is required` });
        continue;
      }
      const expected = TYPE_NAMES.get(field.type);
      if (field.map) {
        if (typeof given !== 'object' || given === null || Array.isArray(given)) errors.push({ path: name, message: `${name} must be an object` });
        else {
          const wrong = Object.keys(given).filter((key) => typeof (given as Record<string, unknown>)[key] !== expected);
          for (const key of wrong) errors.push({ path: `${name}.${key}`, message: `${key} must be a ${expected}` });
          // A copy without a prototype to inherit from: a `__proto__` key is an ordinary key here.
          if (wrong.length === 0) value[name] = Object.assign(Object.create(null) as object, given);
        }
      } else if (typeof given !== expected) errors.push({ path: name, message: `${name} must be a ${expected}` });
      else if (field.minLength !== undefined && (given as string).length < field.minLength) {
        errors.push({ path: name, message: `${name} must have at least ${field.minLength} character(s)` });
      } else value[name] = given;
    }
    if (forbidUnknown) {
      for (const name of Object.keys(input)) if (!fields.some(([known]) => known === name)) errors.push({ path: name, message: `${name} is not a field of ${model.name}` });
    }
    return errors.length > 0 ? { ok: false as const, errors } : { ok: true as const, value: Object.assign(new model(), value) };
  };
  return Object.assign(validate, { native: true, fallbackReasons: [] });
}

/** The seam: Tern asks this object, never the library, about a model. */
export const fieldsCompiler: ModelCompiler = {
  compile: (model, options) => validatorFor(model, options?.forbidNonWhitelisted === true),
  describe: (model) => ({
    model,
    properties: Object.entries(fieldsOf(model)).map(
      ([name, field]): PropertyDescription => ({
        name,
        rules:
          field.minLength === undefined
            ? []
            : [{ name: 'minLength', nested: false, each: false, appliesTo: 'value', constraints: [field.minLength], schema: { minLength: field.minLength } }],
        optional: field.optional === true,
        nullable: false,
        designType: field.map ? Object : field.type,
        declaredType: undefined,
        // A map: the document shows `additionalProperties`, the filter writes each value as `type`.
        ...(field.map ? { record: { values: field.type, list: false } } : {}),
      }),
    ),
  }),
};

/** A note as the store keeps it: more than the API shows. */
interface StoredNote {
  id: number;
  title: string;
  body: string;
  pinned: boolean;
  labels: Record<string, string>;
  ownerId: number;
  moderationFlags: string[];
}

export function buildApp(): TernApp {
  const notes: StoredNote[] = [];
  const app = new TernApp({
    modelCompiler: fieldsCompiler,
    openapi: exampleOpenAPI({
      title: 'Notes API',
      description: 'Models validated and described by a custom ModelCompiler.',
      tags: [{ name: 'notes', description: 'Notes as NoteDto shows them.' }],
    }),
  });

  const create = { summary: 'Create a note', description: 'Validated by CreateNote through the custom compiler.', tags: ['notes'] };
  app.post('/notes', { ...create, requestModel: CreateNote, statusCode: 201, responses: { 201: NoteDto } }, async (req) => {
    const input = req.body as { title: string; body: string; pinned?: boolean; labels?: Record<string, string> };
    const note: StoredNote = { id: notes.length + 1, pinned: false, labels: {}, ...input, ownerId: 42, moderationFlags: [] };
    notes.push(note);
    return note;
  });

  const read = { summary: 'Get a note', description: 'One note, filtered by NoteDto: internal fields stay on the server.', tags: ['notes'] };
  app.get('/notes/{id:int}', { ...read, responses: { 200: NoteDto }, problems: { 404: 'No such note' } }, async (_req, _res, { id }) => {
    const note = notes.find((n) => n.id === id);
    if (!note) throw new HTTPException(404, `No note ${id}`);
    return note;
  });

  return app;
}
