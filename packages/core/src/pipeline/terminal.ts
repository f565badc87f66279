/**
 * The innermost step of a route's chain: body limit, request model, then the handler. Built once
 * per route in `ready()`.
 */
import { requestError } from '../errors/request-error';
import { declaredLengthExceeds, payloadTooLarge, type BodyLimits } from '../http/body';
import { contentTypeCheck } from '../http/media-type';
import { resolveLimits } from '../http/multipart-limits';
import type { TernRequest } from '../http/request';
import type { TernResponse } from '../http/response';
import type { CompiledRoute, QueryValidator } from '../routing/compile';
import type { ValidationResult } from '../validation';
import { compileBodyInput, type BodyInput } from './body-input';
import { formRerender } from './form-template';
import { invoke, type Step } from './chain';
import { compileRouteResponses, withDeclaredResponses, type ResponseContractOptions } from './responses';

export interface TerminalOptions extends Partial<Pick<ResponseContractOptions, 'responseFiltering' | 'validateResponses'>>, Pick<ResponseContractOptions, 'modelCompiler'> {
  /** The app's body limits (its `MakeConfig`); a route's `bodyLimit`/`multipartLimit` replace them. */
  limits: BodyLimits;
  /** Reports an error that can no longer change the answer (a mounted app failing after it replied). */
  report: (err: unknown, req: TernRequest) => void;
}

const MULTIPART = /^\s*multipart\/form-data\b/i;

/**
 * The body limits a route's requests are read with: the app's object itself when the route sets
 * none (the request keeps it, nothing per request), else a copy with the route's own, its
 * `multipart` limits resolved here, once, rather than by each request that reads the body.
 */
export function routeLimits(route: CompiledRoute, limits: BodyLimits): BodyLimits {
  const { bodyLimit, multipartLimit, multipart } = route.spec;
  if (bodyLimit === undefined && multipartLimit === undefined && multipart === undefined) return limits;
  const own = { ...limits, bodyLimit: bodyLimit ?? limits.bodyLimit, multipartLimit: multipartLimit ?? limits.multipartLimit };
  return { ...own, multipart: multipart && resolveLimits(multipart, own.multipartLimit) };
}

/** `limits`: the route's, as `routeLimits` gives them. */
export function routeTerminal(route: CompiledRoute, limits: BodyLimits, options: TerminalOptions): Step {
  // A mounted Node listener answers on the raw response itself; body rules are its own business.
  const { mount } = route;
  if (mount) return (req, res) => mount(req, res, (err) => options.report(err, req));
  const { handler, info: { statusCode } } = route;
  const { bodyLimit, multipartLimit } = limits;
  const { validator, queryValidator } = route;
  // Only a request model is read by Tern; its `consumes` picks the reader (JSON by default).
  const read = validator ? compileBodyInput(route) : undefined;
  // Declared response models: filtering serializers (and checks) handed to the response.
  const responses = compileRouteResponses(route, {
    responseFiltering: options.responseFiltering ?? true,
    validateResponses: options.validateResponses ?? false,
    modelCompiler: options.modelCompiler,
  });
  // `consumes`: a body of another media type is a 415 (routes without it pay nothing).
  const checkContentType = contentTypeCheck(route.spec.consumes);
  // `formTemplate`: a rejected form is shown again, with its errors and values, instead of a problem.
  const showForm = validator ? formRerender(route, read as BodyInput) : undefined;
  // No `async` layer of its own (see `invoke`): a request without a model never waits on one.
  const serve: Step = (req, res) => {
    // A multipart body has its own limit when the app or route gives one (uploads large, JSON small).
    const limit = multipartLimit !== bodyLimit && MULTIPART.test(req.raw.headers['content-type'] ?? '') ? multipartLimit : bodyLimit;
    if (declaredLengthExceeds(req.raw, limit)) return Promise.reject(payloadTooLarge(limit));
    if (checkContentType) {
      try {
        checkContentType(req.raw.headers['content-type'], req.hasBody);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    if (queryValidator) {
      const checked = validateQuery(req, queryValidator);
      if (checked !== undefined) return checked.then(() => (validator ? serveModel(req, res) : invoke(handler, req, res, req.pathParams, 'handler', statusCode)));
    }
    if (!validator) return invoke(handler, req, res, req.pathParams, 'handler', statusCode);
    return serveModel(req, res);
  };
  const serveModel: Step = (req, res) => {
    // One `then` from the parsed body to the handler: no async layer, no step per stage.
    const validated = validateBody(req, validator as NonNullable<typeof validator>, read as BodyInput, (body) => {
      req.body = body;
      return invoke(handler, req, res, req.pathParams, 'handler', statusCode);
    });
    return showForm ? validated.catch((err) => showForm(req, res, err)) : validated;
  };
  return responses ? withDeclaredResponses(serve, responses) : serve;
}

/**
 * Validates the query string into `req.query`: `undefined` when that was synchronous and passed,
 * else a promise (rejected with the 422 when the schema refused it).
 */
function validateQuery(req: TernRequest, validate: QueryValidator): Promise<void> | undefined {
  const settle = (result: ValidationResult<unknown>): void => {
    if (!result.ok) throw requestError('TERN_VALIDATION_FAILED', 'Query parameters failed validation.', { errors: result.errors, errorsOmitted: result.omitted });
    req.query = result.value;
  };
  let pending: ValidationResult<unknown> | Promise<ValidationResult<unknown>>;
  try {
    pending = validate(req.queryParams.toObject());
    if (!(pending instanceof Promise)) {
      settle(pending);
      return undefined;
    }
  } catch (err) {
    return Promise.reject(err);
  }
  return pending.then(settle);
}

/** Reads and validates the body, then hands the valid model to `then`; rejects with the 422 (or the read's 4xx). */
function validateBody(
  req: TernRequest,
  validator: (input: unknown) => ValidationResult<object> | Promise<ValidationResult<object>>,
  read: BodyInput,
  then: (body: object) => Promise<TernResponse>,
): Promise<TernResponse> {
  if (!req.hasBody) {
    return Promise.reject(
      requestError('TERN_VALIDATION_FAILED', 'Request body is required.', {
        errors: [{ path: '', message: 'request body is required' }],
      }),
    );
  }
  const settle = (result: ValidationResult<object>): Promise<TernResponse> => {
    if (!result.ok) {
      throw requestError('TERN_VALIDATION_FAILED', 'Request body failed validation.', { errors: result.errors, errorsOmitted: result.omitted });
    }
    return then(result.value);
  };
  return read(req).then((input) => {
    const pending = validator(input);
    // Compiled models answer synchronously; only the class-validator fallback returns a promise.
    return pending instanceof Promise ? pending.then(settle) : settle(pending);
  });
}
