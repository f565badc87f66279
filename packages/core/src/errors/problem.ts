import { STATUS_CODES } from 'node:http';
import { HTTPException } from './http-exception';

/** The RFC 9457 body Tern sends for its own errors. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance: string;
  code?: string;
  errors?: Array<{ path: string; message: string }>;
  /** Failures found beyond those `errors` lists (the list is capped, so an answer stays small). */
  errorsOmitted?: number;
  /** Debug mode only. */
  reasons?: string[];
  /** Debug mode only, 500s. */
  stack?: string;
  /** The request's id (`req.id`), when the app uses ids: what a client quotes in a bug report. */
  requestId?: string;
}

/**
 * Builds the problem body for any thrown value. Without `debug`, a non-HTTP error says only
 * "Internal Server Error": messages and stacks can leak paths, queries or secrets.
 */
export function toProblem(error: unknown, instance: string, debug: boolean): ProblemDetails {
  if (error instanceof HTTPException) {
    const status = error.status;
    const problem: ProblemDetails = {
      type: 'about:blank',
      title: STATUS_CODES[status] ?? 'Error',
      status,
      detail: error.detail,
      instance,
    };
    if (error.code) problem.code = error.code;
    if (error.errors) problem.errors = error.errors;
    if (error.errorsOmitted) problem.errorsOmitted = error.errorsOmitted;
    if (debug && error.debugReasons) problem.reasons = error.debugReasons;
    return problem;
  }
  const problem: ProblemDetails = { type: 'about:blank', title: 'Internal Server Error', status: 500, instance };
  if (debug) {
    problem.detail = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && error.stack) problem.stack = error.stack;
  } else {
    problem.detail = 'Internal Server Error';
  }
  return problem;
}
