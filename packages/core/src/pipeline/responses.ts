/**
 * Responses by contract: each route's declared response models, compiled once in `ready()` into
 * the serializers `res.json()` uses (only what the model declares leaves the server) and, with
 * `validateResponses`, into a check of the filtered body against the model.
 */
import { TernError } from '../errors';
import type { JsonSerializers, TernResponse } from '../http/response';
import type { CompiledRoute } from '../routing/compile';
import type { ResponseSchema } from '../routing/types';
import { compileResponseSerializers, type ResponseSerializers } from '../serialization/compile';
import type { ModelCompiler } from '../validation/model-compiler';
import type { Step } from './chain';
import { contractCheck, declaredSchemas } from './response-checks';
import { failClosed } from './fail-closed';

export interface ResponseContractOptions {
  /** `MakeConfig.responseFiltering`: the app's default; a route's own `responseFiltering` wins. */
  responseFiltering: boolean;
  /** `MakeConfig.validateResponses`. */
  validateResponses: boolean;
  /**
   * The app's compiler: compiles response models' validators (`validateResponses`), and filters
   * models without class-transformer/class-validator decorators by its `describe()`.
   */
  modelCompiler: ModelCompiler;
}

/** What a route needs to keep its contract: the serializers, and the check when asked for. */
export interface RouteResponses {
  /** What `res.json()` filters with: the route's serializers, failing closed on undeclared statuses. */
  readonly serializers: JsonSerializers;
  /** Rejects with `TERN_RESPONSE_CONTRACT_VIOLATED` when the body `json()` wrote breaks its model. */
  readonly check?: (res: TernResponse) => TernResponse | Promise<TernResponse>;
}

/**
 * The route's compiled response contract, or `undefined` when nothing is filtered: no declared
 * model, filtering turned off (app, controller or route), or a mounted app.
 */
export function compileRouteResponses(route: CompiledRoute, options: ResponseContractOptions): RouteResponses | undefined {
  if (route.mount) return undefined;
  const { spec } = route;
  if ((spec.responseFiltering ?? options.responseFiltering) !== true) return undefined;
  const responses = spec.responses as Record<string, ResponseSchema> | undefined;
  // Most routes declare no response at all: nothing to compile (a thousand of them at startup).
  if (responses === undefined || Object.keys(responses).length === 0) return undefined;
  let serializers: ResponseSerializers;
  try {
    serializers = compileResponseSerializers(responses, { modelCompiler: options.modelCompiler });
  } catch (error) {
    if (error instanceof TernError) throw new TernError(error.code, `Route ${route.source}: ${error.message}`, { cause: error });
    throw error;
  }
  if (serializers.size === 0) return undefined;
  const sent = failClosed(serializers, Object.keys(responses));
  if (!options.validateResponses) return { serializers: sent };
  return { serializers: sent, check: contractCheck(route, serializers, declaredSchemas(responses), options) };
}

/**
 * Wraps a route's innermost step: the serializers are handed to the response before the
 * handler runs, and the check (if any) runs on what the handler answered.
 */
export function withDeclaredResponses(step: Step, responses: RouteResponses): Step {
  const { serializers, check } = responses;
  if (check === undefined) {
    return (req, res) => {
      res.serializers = serializers;
      return step(req, res);
    };
  }
  return (req, res) => {
    res.serializers = serializers;
    return step(req, res).then(check);
  };
}

