export {
  TernError,
  RouteConflictError,
  InvalidRouteError,
  RouteImportError,
  UrlGenerationError,
  AppAlreadyReadyError,
  TernTypeError,
  TernRangeError,
} from './tern-error';
export { HTTPException } from './http-exception';
export type { FieldError, HTTPExceptionOptions } from './http-exception';
export { ERROR_CODES, isTernErrorCode } from './codes';
export type {
  ErrorCodeEntry,
  ErrorCodeKind,
  TernErrorCode,
  RequestErrorCode,
  StartupOrServingCode,
  TypeErrorCode,
  RangeErrorCode,
} from './codes';
export type { ProblemDetails } from './problem';
