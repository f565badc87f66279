/**
 * The innermost step of a route's chain: body limit, request model, then the handler. Built once
 * per route in `ready()`.
 */
import { requestError } from '../errors/request-error';
import { declaredLengthExceeds, payloadTooLarge } from '../http/body';
import { contentTypeCheck } from '../http/media-types';
import type { TernRequest } from '../http/request';
import type { CompiledRoute } from '../routing/compile';
import type { ValidationResult } from '../validation';
import { compileBodyInput, type BodyInput } from './body-input';
import { formRerender } from './form-template';
import { invoke, type Step } from './chain';
import { compileRouteResponses, withDeclaredResponses, type ResponseContractOptions } from './responses';

export interface TerminalOptions extends Partial<Pick<ResponseContractOptions, 'responseFiltering' | 'validateResponses'>>, Pick<ResponseContractOptions, 'modelCompiler'> {
  bodyLimit: number;
  /** Reports an error that can no longer change the answer (a mounted app failing after it replied). */
  report: (err: unknown, req: TernRequest) => void;
}

export function routeTerminal(route: CompiledRoute, options: TerminalOptions): Step {
  // A mounted Node listener answers on the raw response itself; body rules are its own business.
  const { mount } = route;
  if (mount) return (req, res) => mount(req, res, (err) => options.report(err, req));
  const { handler, statusCode } = route;
  const { bodyLimit } = options;
  const { validator } = route;
  // Only a request model is read by Tern; its `consumes` picks the reader (JSON by default).
  const read = validator ? compileBodyInput(route) : undefined;
  // Declared response models: filtering serializers (and checks) handed to the response.
  const responses = compileRouteResponses(route, {
    responseFiltering: options.responseFiltering ?? true,
    validateResponses: options.validateResponses ?? false,
    modelCompiler: options.modelCompiler,
  });
  // `consumes`: a body of another media type is a 415 (routes without it pay nothing).
  const checkContentType = contentTypeCheck(route.declaration.options.consumes, `Route ${route.source}`);
  // `formTemplate`: a rejected form is shown again, with its errors and values, instead of a problem.
  const showForm = validator ? formRerender(route, read as BodyInput) : undefined;
  // No `async` layer of its own (see `invoke`): a request without a model never waits on one.
  const serve: Step = (req, res) => {
    if (declaredLengthExceeds(req.raw, bodyLimit)) return Promise.reject(payloadTooLarge(bodyLimit));
    if (checkContentType) {
      try {
        checkContentType(req.raw.headers['content-type'], req.hasBody);
      } catch (err) {
        return Promise.reject(err);
      }
    }
    if (!validator) return invoke(handler, req, res, req.pathParams, 'handler', statusCode);
    const validated = validateBody(req, validator, read as BodyInput).then((body) => {
      req.body = body;
      return invoke(handler, req, res, req.pathParams, 'handler', statusCode);
    });
    return showForm ? validated.catch((err) => showForm(req, res, err)) : validated;
  };
  return responses ? withDeclaredResponses(serve, responses) : serve;
}

async function validateBody(
  req: TernRequest,
  validator: (input: unknown) => ValidationResult<object> | Promise<ValidationResult<object>>,
  read: BodyInput,
): Promise<object> {
  if (!req.hasBody) {
    throw requestError('TERN_VALIDATION_FAILED', 'Request body is required.', {
      errors: [{ path: '', message: 'request body is required' }],
    });
  }
  const pending = validator(await read(req));
  // Compiled models answer synchronously; only the class-validator fallback returns a promise.
  const result = pending instanceof Promise ? await pending : pending;
  if (!result.ok) {
    throw requestError('TERN_VALIDATION_FAILED', 'Request body failed validation.', { errors: result.errors, errorsOmitted: result.omitted });
  }
  return result.value;
}
