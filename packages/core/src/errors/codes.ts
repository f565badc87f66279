/**
 * The one table of every `TERN_*` code Tern uses. A code is typed `TernErrorCode`, derived from
 * this table, so a misspelt code is a compile error; docs/errors.md documents each row and
 * test/error-codes.test.ts keeps the two in step in both directions.
 *
 * Kinds:
 * - `request`: answered to a request as an `HTTPException` with the row's `status`;
 * - `startup`: a `TernError` thrown by `app.ready()` or by the declaring call it names;
 * - `serving`: a `TernError` thrown while serving a request (a template that fails to render, a
 *   middleware misusing `next()`), answered 500;
 * - `usage`: a public function got an argument it cannot use; thrown at the call as a
 *   `TernTypeError` or `TernRangeError` (the row's `error`), so `instanceof TypeError` holds.
 */

/**
 * A row of {@link ERROR_CODES}.
 *
 * @example
 * const row: ErrorCodeEntry = { kind: 'request', status: 404, meaning: 'No route matches the path.' };
 */
export type ErrorCodeEntry =
  | { readonly kind: 'request'; readonly status: number; readonly meaning: string }
  | { readonly kind: 'startup'; readonly meaning: string }
  | { readonly kind: 'serving'; readonly meaning: string }
  | { readonly kind: 'usage'; readonly error: 'TypeError' | 'RangeError'; readonly meaning: string };

/**
 * Which of the four families a code belongs to.
 *
 * @example
 * const kind: ErrorCodeKind = ERROR_CODES.TERN_ROUTE_CONFLICT.kind; // 'startup'
 */
export type ErrorCodeKind = ErrorCodeEntry['kind'];

const table = {
  // Answered to requests (HTTPException; the status is the answer's).
  TERN_NOT_FOUND: { kind: 'request', status: 404, meaning: 'No route matches the path.' },
  TERN_METHOD_NOT_ALLOWED: { kind: 'request', status: 405, meaning: 'The path matches, the method does not.' },
  TERN_INVALID_PATH_PARAM: { kind: 'request', status: 422, meaning: 'A path value fails its converter.' },
  TERN_VALIDATION_FAILED: { kind: 'request', status: 422, meaning: 'A request model rejected the input, or the body is missing.' },
  TERN_PARAM_TOO_LONG: { kind: 'request', status: 414, meaning: 'A path parameter is longer than maxParamLength.' },
  TERN_BAD_URL: { kind: 'request', status: 400, meaning: 'The path has malformed percent-encoding.' },
  TERN_BAD_PATH: { kind: 'request', status: 400, meaning: "The path has '.' or '..' segments." },
  TERN_BAD_REQUEST_TARGET: { kind: 'request', status: 400, meaning: 'The request target is neither a path nor an absolute URL.' },
  TERN_INVALID_JSON: { kind: 'request', status: 400, meaning: 'The body is not valid JSON.' },
  TERN_JSON_FORBIDDEN_KEY: { kind: 'request', status: 400, meaning: 'The JSON has a __proto__ or constructor.prototype key.' },
  TERN_JSON_TOO_DEEP: { kind: 'request', status: 400, meaning: 'The JSON nests deeper than jsonDepthLimit.' },
  TERN_BAD_CONTENT_TYPE: { kind: 'request', status: 400, meaning: 'The Content-Type header cannot be parsed.' },
  TERN_UNSUPPORTED_MEDIA_TYPE: { kind: 'request', status: 415, meaning: "The body's content type is not one the route reads (JSON, or what its consumes lists)." },
  TERN_BODY_TOO_LARGE: { kind: 'request', status: 413, meaning: 'The body is over bodyLimit.' },
  TERN_BODY_READ_FAILED: { kind: 'request', status: 400, meaning: 'The body stream failed.' },
  TERN_INVALID_PARAMETER: { kind: 'request', status: 422, meaning: 'A controller query, header or cookie value does not convert to its type.' },
  TERN_UNAUTHORIZED: { kind: 'request', status: 401, meaning: 'Credentials missing or refused by the verifier.' },
  TERN_FORBIDDEN: { kind: 'request', status: 403, meaning: 'Valid credentials lacking a required OAuth2 scope or role.' },
  TERN_CLIENT_ABORTED: { kind: 'request', status: 400, meaning: 'The client hung up mid-body.' },
  TERN_FORM_TOO_MANY_FIELDS: { kind: 'request', status: 413, meaning: 'A urlencoded form has more fields than formFieldLimit.' },
  TERN_MULTIPART_LIMIT: { kind: 'request', status: 413, meaning: 'A multipart body passes one of its limits; the detail names it.' },
  TERN_INVALID_MULTIPART: { kind: 'request', status: 400, meaning: 'The multipart body is malformed or cut short.' },
  TERN_FILE_TYPE_NOT_ALLOWED: { kind: 'request', status: 415, meaning: 'An uploaded file has a type the route does not accept.' },
  TERN_FILE_NOT_FOUND: { kind: 'request', status: 404, meaning: 'res.file() or serveStatic(): no such file.' },
  TERN_UPGRADE_REQUIRED: { kind: 'request', status: 426, meaning: 'A plain HTTP request reached a socket route: connect with a WebSocket client.' },
  TERN_BAD_HANDSHAKE: { kind: 'request', status: 400, meaning: 'A WebSocket upgrade with a wrong method, Upgrade header, Sec-WebSocket-Key or version.' },
  TERN_SOCKETS_UNAVAILABLE: { kind: 'request', status: 503, meaning: 'The app holds websocket.maxConnections sockets, or is shutting down: the upgrade is refused.' },
  TERN_FILE_FORBIDDEN: { kind: 'request', status: 403, meaning: 'res.file() or serveStatic(): a path leaving the root, a dotfile or a symlink out of the root.' },
  TERN_RANGE_NOT_SATISFIABLE: { kind: 'request', status: 416, meaning: 'A Range outside the file.' },
  TERN_PRECONDITION_FAILED: { kind: 'request', status: 412, meaning: 'If-Match or If-Unmodified-Since does not hold for the file.' },
  TERN_CSRF_INVALID: { kind: 'request', status: 403, meaning: 'csrf(): an unsafe request without a valid token, or sent from another site.' },
  TERN_FILE_CHANGING: { kind: 'request', status: 503, meaning: 'res.file() or serveStatic(): the file was replaced twice while it was being checked.' },
  TERN_KEY_SERVER_UNAVAILABLE: { kind: 'request', status: 503, meaning: 'jwtVerifier: the key set at jwksUri could not be fetched and no keys were fetched before.' },
  TERN_RATE_LIMITED: { kind: 'request', status: 429, meaning: "The client passed the route's rateLimit for this window." },
  TERN_STORE_UNAVAILABLE: { kind: 'request', status: 503, meaning: "The app's store failed or timed out and the request needs it (a rate limit, a session)." },

  // Thrown at startup (TernError), by app.ready() or the declaring call.
  TERN_ROUTE_CONFLICT: { kind: 'startup', meaning: 'Two routes share a method and path shape, or a full name.' },
  TERN_INVALID_ROUTE: { kind: 'startup', meaning: 'A path pattern cannot be compiled.' },
  TERN_UNKNOWN_CONVERTER: { kind: 'startup', meaning: 'A path names a converter nobody registered.' },
  TERN_INVALID_CONVERTER: { kind: 'startup', meaning: 'registerUrlConvertor got a bad name, a built-in name or an invalid regex.' },
  TERN_INVALID_MAPPED_TYPE: { kind: 'startup', meaning: 'PartialType/PickType/OmitType/IntersectionType got something that is not a class, or unknown keys.' },
  TERN_INVALID_CORS_OPTIONS: { kind: 'startup', meaning: 'cors() got options it cannot honour (credentials with a wildcard origin, a bad origin).' },
  TERN_INVALID_COMPRESS_OPTIONS: { kind: 'startup', meaning: 'compress() got an invalid threshold, level or filter.' },
  TERN_INVALID_ROUTE_OPTION: { kind: 'startup', meaning: 'A route option has a value the options table refuses, or is not a route option at all.' },
  TERN_INVALID_BODY_OPTIONS: { kind: 'startup', meaning: "An upload decorator's route does not consume multipart/form-data." },
  TERN_INVALID_RESPONSE_MODEL: { kind: 'startup', meaning: "A route's declared response cannot be compiled into a filtering serializer." },
  TERN_INVALID_OPENAPI_OPTIONS: { kind: 'startup', meaning: 'A docs security option (frame ancestors, connect sources, CSP) is malformed.' },
  TERN_UNSAFE_CONVERTER_REGEX: { kind: 'startup', meaning: "A converter's regex can backtrack catastrophically." },
  TERN_MISSING_HANDLER: { kind: 'startup', meaning: 'A Routes without a handler was added to an app.' },
  TERN_INVALID_MIDDLEWARE: { kind: 'startup', meaning: 'A middleware entry is not a function or a factory tuple.' },
  TERN_INVALID_DECLARATION: { kind: 'startup', meaning: 'Something other than Routes, Router or Group was declared.' },
  TERN_ROUTER_CYCLE: { kind: 'startup', meaning: 'A router or group is mounted inside itself.' },
  TERN_IMPORT_FAILED: { kind: 'startup', meaning: 'routesFromConfig could not load a module or export.' },
  TERN_APP_ALREADY_READY: { kind: 'startup', meaning: 'A declaration was made after ready().' },
  TERN_ALREADY_LISTENING: { kind: 'startup', meaning: 'listen() was called twice.' },
  TERN_STARTUP_FAILED: { kind: 'startup', meaning: 'An onStartup hook threw or rejected; the message names it, `cause` is its error.' },
  TERN_URL_GENERATION: { kind: 'startup', meaning: 'urlFor got an unknown name, a missing parameter or a refused value.' },
  TERN_INVALID_SECURITY_SCHEME: { kind: 'startup', meaning: 'addSecurityScheme got a bad name or something that is not a scheme.' },
  TERN_UNKNOWN_SECURITY_SCHEME: { kind: 'startup', meaning: 'A security requirement names an unregistered scheme.' },
  TERN_UNKNOWN_SECURITY_SCOPE: { kind: 'startup', meaning: 'An OAuth2 requirement asks for a scope no flow defines.' },
  TERN_DUPLICATE_OPERATION_ID: { kind: 'startup', meaning: 'Two operations declare one operationId.' },
  TERN_INVALID_OPENAPI_METADATA: { kind: 'startup', meaning: 'Route metadata the OpenAPI document cannot describe.' },
  TERN_DECORATOR_MISUSE: { kind: 'startup', meaning: 'A decorator got bad arguments or sits on the wrong target.' },
  TERN_CONTROLLER_MISSING_DECORATOR: { kind: 'startup', meaning: 'A registered class has no @Controller.' },
  TERN_CONTROLLER_INSTANTIATION: { kind: 'startup', meaning: 'A controller cannot be built with new C().' },
  TERN_CONTROLLER_UNDECORATED_PARAM: { kind: 'startup', meaning: 'A route method parameter has no decorator.' },
  TERN_CONTROLLER_UNRESOLVED_TYPE: { kind: 'startup', meaning: 'A @Body()/@Query() DTO has no usable type metadata.' },
  TERN_CONTROLLER_UNSUPPORTED_TYPE: { kind: 'startup', meaning: 'A parameter type Tern cannot convert or validate.' },
  TERN_CONTROLLER_UNKNOWN_PARAM: { kind: 'startup', meaning: '@Param(name) names a parameter the path does not have.' },
  TERN_CONTROLLER_INVALID: { kind: 'startup', meaning: 'Another controller mistake.' },
  TERN_INVALID_SECURITY_VERIFIER: { kind: 'startup', meaning: 'enforceSecurity got a verifier that is not a function, or one returned a bad result.' },
  TERN_MISSING_SECURITY_VERIFIER: { kind: 'startup', meaning: 'A route requires a scheme that has no verifier.' },
  TERN_UNENFORCEABLE_SECURITY: { kind: 'startup', meaning: 'A verifier for a scheme enforceSecurity cannot check (HTTP basic or digest, mutual TLS).' },
  TERN_JWT_LIBRARY_UNAVAILABLE: { kind: 'startup', meaning: "jwtVerifier could not load 'jose' (under jest: NODE_OPTIONS=--experimental-vm-modules)." },
  TERN_ROUTES_ROOT_NOT_FOUND: { kind: 'startup', meaning: "A FileRouter's root is not a directory." },
  TERN_INVALID_ROUTE_FILE: { kind: 'startup', meaning: 'A route file exports no usable handler or declaration.' },
  TERN_TEMPLATE_DIR_NOT_FOUND: { kind: 'startup', meaning: "configureTemplates' templateDir is not a directory." },
  TERN_DUPLICATE_LIBRARY: { kind: 'startup', meaning: 'Tern and the app load different copies of class-validator or class-transformer.' },
  TERN_EMPTY_MODEL: { kind: 'startup', meaning: 'A request model has no property its model compiler accepts, e.g. no class-validator rule (with strictModels on).' },
  TERN_LOGGER_UNAVAILABLE: { kind: 'startup', meaning: "new TernApp({ logger: true }) cannot load pino (an optional peer): install it or pass a logger." },
  TERN_CONTRACT_VIOLATION: { kind: 'startup', meaning: 'checkContract found an answer the OpenAPI document does not allow.' },
  TERN_STORE_DEPENDENCY: { kind: 'startup', meaning: "redisStore() cannot load ioredis (an optional peer): install it." },
  TERN_CONTRACT_DEPENDENCY: { kind: 'startup', meaning: 'checkContract needs fast-check, ajv and ajv-formats installed.' },

  // Thrown while serving a request (TernError, answered 500).
  TERN_UNDECLARED_RESPONSE_STATUS: { kind: 'serving', meaning: 'A route that declares response models sent JSON with a success status none covers (answered 500).' },
  TERN_STORE_COMMAND_FAILED: { kind: 'serving', meaning: 'A store command failed or passed its commandTimeout (Redis unreachable, or the store closed).' },
  TERN_NO_SESSION: { kind: 'serving', meaning: 'req.session was read on a request no session() middleware ran for.' },
  TERN_NEXT_CALLED_TWICE: { kind: 'serving', meaning: 'A middleware called next() a second time.' },
  TERN_CONNECT_NEXT_ROUTE: { kind: 'serving', meaning: "A Connect middleware called next('route') or next('router'), which Tern's chains do not have." },
  TERN_RESPONSE_TOO_DEEP: { kind: 'serving', meaning: 'A response nests declared objects and arrays deeper than the serializer writes (1000 levels).' },
  TERN_RESPONSE_CONTRACT_VIOLATED: { kind: 'serving', meaning: "With validateResponses, a handler's JSON body breaks its route's declared response model." },
  TERN_TEMPLATES_NOT_CONFIGURED: { kind: 'serving', meaning: 'res.render was called before configureTemplates.' },
  TERN_TEMPLATE_NAME_INVALID: { kind: 'serving', meaning: 'A template name that could leave templateDir.' },
  TERN_TEMPLATE_NOT_FOUND: { kind: 'serving', meaning: 'No such template file.' },
  TERN_TEMPLATE_ERROR: { kind: 'serving', meaning: 'The template failed to render.' },
  TERN_ASSET_NOT_FOUND: { kind: 'serving', meaning: 'assetUrl() / {{ asset() }} named a file no fingerprinted static folder holds.' },
  TERN_TEMPLATE_CONTEXT_INVALID: { kind: 'serving', meaning: 'A render() handler returned something that is not an object.' },

  // Misuse of a public function, thrown at the call (TernTypeError / TernRangeError).
  TERN_INVALID_HANDLER: { kind: 'usage', error: 'TypeError', meaning: 'A handler, middleware or exception handler argument is not a function.' },
  TERN_INVALID_ARGUMENT: { kind: 'usage', error: 'TypeError', meaning: 'An argument or option has the wrong type or shape.' },
  TERN_INVALID_JWT_OPTIONS: { kind: 'usage', error: 'TypeError', meaning: 'jwtVerifier options that cannot verify safely: no or a wrong algorithm list, a key of the wrong kind, a short secret.' },
  TERN_INVALID_STATUS: { kind: 'usage', error: 'RangeError', meaning: 'A status code out of range, or not an error status where one is needed.' },
  TERN_INVALID_LIMIT: { kind: 'usage', error: 'RangeError', meaning: 'A numeric limit is not a positive integer.' },
  TERN_BODY_ALREADY_READ: { kind: 'usage', error: 'TypeError', meaning: 'The body was already taken as a stream, or read whole before stream(), parts() or multipart().' },
} as const satisfies Record<`TERN_${string}`, ErrorCodeEntry>;

for (const entry of Object.values(table)) Object.freeze(entry);

/**
 * Every `TERN_*` code with its kind, its status (request errors) or error class (usage errors),
 * and a one-line meaning. Frozen: it is the reference, not a setting.
 *
 * @example
 * ERROR_CODES.TERN_NOT_FOUND;       // { kind: 'request', status: 404, meaning: 'No route matches the path.' }
 * ERROR_CODES.TERN_INVALID_HANDLER; // { kind: 'usage', error: 'TypeError', meaning: '…' }
 */
export const ERROR_CODES: typeof table = Object.freeze(table);

/**
 * Every code Tern uses; a string outside the table does not type-check.
 *
 * @example
 * const code: TernErrorCode = 'TERN_ROUTE_CONFLICT'; // compiles; a misspelt code does not
 */
export type TernErrorCode = keyof typeof table;

/** The codes of one kind (and, for usage codes, optionally one error class). */
type CodesWhere<Shape> = { [C in TernErrorCode]: (typeof table)[C] extends Shape ? C : never }[TernErrorCode];

/**
 * Codes answered to requests; an `HTTPException` carries one of these.
 *
 * @example
 * const code: RequestErrorCode = 'TERN_NOT_FOUND';
 */
export type RequestErrorCode = CodesWhere<{ kind: 'request' }>;

/**
 * Codes a `TernError` carries: startup and serving errors.
 *
 * @example
 * const code: StartupOrServingCode = 'TERN_TEMPLATE_NOT_FOUND';
 */
export type StartupOrServingCode = CodesWhere<{ kind: 'startup' | 'serving' }>;

/**
 * Codes a `TernTypeError` carries.
 *
 * @example
 * const code: TypeErrorCode = 'TERN_INVALID_HANDLER';
 */
export type TypeErrorCode = CodesWhere<{ kind: 'usage'; error: 'TypeError' }>;

/**
 * Codes a `TernRangeError` carries.
 *
 * @example
 * const code: RangeErrorCode = 'TERN_INVALID_STATUS';
 */
export type RangeErrorCode = CodesWhere<{ kind: 'usage'; error: 'RangeError' }>;

/**
 * True when `value` is one of Tern's codes; narrows an unknown `err.code`.
 *
 * @example
 * if (isTernErrorCode(err.code) && ERROR_CODES[err.code].kind === 'usage') { ... }
 */
export function isTernErrorCode(value: unknown): value is TernErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(table, value);
}

/**
 * The status a request code is answered with.
 *
 * @example
 * statusOf('TERN_BODY_TOO_LARGE'); // 413
 */
export function statusOf(code: RequestErrorCode): number {
  return table[code].status;
}
