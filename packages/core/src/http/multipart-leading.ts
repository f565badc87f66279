/**
 * A look at the text fields a multipart body starts with, before anyone reads a file: `csrf()`
 * finds its token there (a form's hidden fields come before its file inputs) without holding a
 * byte of any upload. The look stops where the first file part starts; that file's contents are
 * not read (backpressure pauses the body), so a refusal costs at most the body's first chunks.
 * The parse it started is handed on: the request's next `multipart()` or `parts()` continues it,
 * with every part seen so far replayed in order.
 */
import type { IncomingMessage } from 'node:http';
import type { HTTPException } from '../errors';
import { addField, type FormFields } from './form';
import type { ResolvedLimits } from './multipart-limits';
import { handOnParse, openMultipart, type FilePartStart, type MultipartSession, type MultipartSink } from './multipart-parser';

/** The fields before the first file part, and what to do with the rest of the body. */
export interface LeadingFields {
  fields: FormFields;
  /** True when a file part follows the fields (its contents not read yet). */
  fileFollows: boolean;
  /** Stops the parse and reading the body: the request is refused. */
  stop(err: HTTPException): void;
  /** Drains what nobody took over (the handler did not read the body); nothing is kept. */
  release(): void;
}

type Event = { field: [string, string] } | { file: FilePartStart } | { done: HTTPException | undefined };

/**
 * Reads `req`'s multipart body up to its first file part (or its end). Rejects, as `multipart()`
 * does, with the 415, 413 or 400 of a body that cannot be read that far.
 */
export function readLeadingFields(req: IncomingMessage, limits: ResolvedLimits, bodyLimit: number): Promise<LeadingFields> {
  return new Promise((resolve, reject) => {
    const fields: FormFields = Object.create(null);
    const seen: Event[] = [];
    let taker: MultipartSink | undefined;
    let looking = true;
    let session: MultipartSession;
    let failed = false;

    const deliver = (event: Event, to: MultipartSink) => {
      if ('field' in event) to.field(...event.field);
      else if ('file' in event) to.file(event.file);
      else to.done(event.done);
    };
    const attach = (sink: MultipartSink): MultipartSession => {
      taker = sink;
      for (const event of seen.splice(0)) deliver(event, sink);
      return session;
    };
    const answer = (fileFollows: boolean) => {
      looking = false;
      resolve({
        fields,
        fileFollows,
        stop: (err) => {
          handOnParse(req, undefined);
          session.abort(err);
        },
        release: () => {
          handOnParse(req, undefined);
          if (taker === undefined) attach({ field: ignore, file: ({ stream }) => stream.resume(), done: ignore });
        },
      });
    };
    const record = (event: Event) => {
      if (taker !== undefined) deliver(event, taker);
      else seen.push(event);
    };

    try {
      session = openMultipart(req, limits, bodyLimit, {
        field: (name, value) => {
          if (looking) addField(fields, name, value);
          record({ field: [name, value] });
        },
        file: (part) => {
          record({ file: part });
          if (looking) answer(true);
        },
        done: (err) => {
          record({ done: err });
          if (!looking) return;
          looking = false;
          if (err) {
            failed = true;
            handOnParse(req, undefined);
            reject(err);
          } else answer(false);
        },
      });
      if (!failed) handOnParse(req, attach);
    } catch (err) {
      reject(err);
    }
  });
}

function ignore(): void {}
