/**
 * Frames read by a socket route's `messageModel`: JSON text validated by the same compiled
 * validator a request body gets (a model class's, or a Standard Schema's library). A frame that is not JSON, or that the model refuses, becomes an
 * error frame (a problem object, as an HTTP error body) and the socket stays open.
 */
import { HTTPException } from '../errors';
import { toProblem, type ProblemDetails } from '../errors/problem';
import { requestError } from '../errors/request-error';
import { parseJson } from '../http/body';
import type { ModelValidator, ValidationResult } from '../validation/types';

/** A frame read: the model's instance (or the schema's output), or the problem to send back. */
export type MessageReading = { ok: true; value: unknown } | { ok: false; problem: ProblemDetails };

export type MessageReader = (frame: Buffer) => MessageReading | Promise<MessageReading>;

/** `instance` is the socket route's path, as an HTTP problem names the request path. */
export function messageReader(validator: ModelValidator<unknown>, depthLimit: number, instance: string, debug: boolean): MessageReader {
  const refuse = (err: unknown): MessageReading => {
    if (!(err instanceof HTTPException)) throw err;
    const problem = toProblem(err, instance, debug);
    // The JSON reader speaks of request bodies; here it read a message.
    if (problem.detail !== undefined) problem.detail = problem.detail.replace(/^(?:Request body|JSON body)/, 'The message');
    return { ok: false, problem };
  };
  const settle = (result: ValidationResult<unknown>): MessageReading =>
    result.ok
      ? { ok: true, value: result.value }
      : refuse(requestError('TERN_VALIDATION_FAILED', 'The message failed validation.', { errors: result.errors, errorsOmitted: result.omitted }));
  return (frame) => {
    let input: unknown;
    try {
      input = parseJson(frame.toString('utf8'), depthLimit);
    } catch (err) {
      return refuse(err);
    }
    const pending = validator(input);
    // Compiled models answer synchronously; the class-validator fallback and async Standard Schemas return a promise.
    return pending instanceof Promise ? pending.then(settle) : settle(pending);
  };
}
