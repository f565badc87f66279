import { TernTypeError } from '../errors';
import type { FormFields } from './form';
import type { MultipartBody } from './multipart';

/**
 * How a request's body has been taken: read whole (`buffer`, `text`, `json`, `form`, which share
 * one read), handed over as a stream (`stream`, `parts`, `multipart`, one of them, once), or
 * looked into up to its first file part (`csrf()`), which `parts` or `multipart` continue.
 */
export type BodyAccess = 'whole' | 'stream' | 'leading';

/** What a request remembers of its body reads besides JSON: how it was taken, and each result. */
export interface BodyReads {
  access?: BodyAccess;
  buffer?: Promise<Buffer>;
  form?: Promise<FormFields>;
  multipart?: Promise<MultipartBody>;
}

/** The misuse error for reading a body a second, incompatible way. */
export function bodyAlreadyRead(call: string, taken: BodyAccess): TernTypeError {
  return new TernTypeError(
    'TERN_BODY_ALREADY_READ',
    taken !== 'whole'
      ? `req.${call}: the body was already taken by req.stream(), req.parts() or req.multipart(); a body is read once.`
      : `req.${call}: the body was already read whole (req.buffer(), text(), json() or form()); use req.buffer() again instead of streaming it.`,
  );
}
