import { HTTPException } from '../errors';
import { toProblem } from '../errors/problem';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';

/** Writes a problem for `error` onto the response: status, its headers, `application/problem+json`. */
export function sendProblem(req: TernRequest, res: TernResponse, error: unknown, debug: boolean): TernResponse {
  const problem = toProblem(error, req.path, debug);
  // Set by the pipeline when the app uses ids, or by a handler that read `req.id`.
  if (req.requestId !== undefined) problem.requestId = req.requestId;
  if (error instanceof HTTPException && error.headers) {
    for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  }
  return res.send(JSON.stringify(problem), 'application/problem+json; charset=utf-8', problem.status);
}
