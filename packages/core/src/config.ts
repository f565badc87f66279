import { TernRangeError, TernTypeError } from './errors';
import { nearestHint } from './errors/nearest-name';

/**
 * Application settings that change behaviour rather than declare routes.
 *
 * @example
 * const app = new TernApp({ config: new MakeConfig({ debug: process.env.NODE_ENV !== 'production' }) });
 */
export class MakeConfig {
  /** Explain routing failures and show 500 messages and stacks in responses. Never on in production. */
  readonly debug: boolean;
  /** Largest request body in bytes (default 1 MiB); larger is a 413. Routes and controllers can set their own. */
  readonly bodyLimit: number;
  /**
   * Largest `multipart/form-data` body in bytes (default: `bodyLimit`); larger is a 413. An app
   * taking uploads raises this one, and its JSON routes keep the small `bodyLimit`.
   */
  readonly multipartLimit: number;
  /** Deepest JSON nesting accepted (default 64); deeper is a 400. */
  readonly jsonDepthLimit: number;
  /** Longest path parameter in characters (default 100, as Fastify); longer is a 414. */
  readonly maxParamLength: number;
  /**
   * Body properties a request model does not declare answer 422 naming them (default `false`:
   * they are stripped). Controllers and routes can set it too; the nearest setting wins.
   */
  readonly forbidUnknownProperties: boolean;
  /**
   * A request model without any class-validator rule fails `ready()` (`TERN_EMPTY_MODEL`)
   * instead of logging a warning (default `false`). Such a model strips every property.
   */
  readonly strictModels: boolean;
  /** Most fields a urlencoded form body may have (default 1000); more is a 413. */
  readonly formFieldLimit: number;
  /**
   * Send only what a route's declared response model holds (`responses: { 200: UserDto }`):
   * default `true`. A route or controller can still say `responseFiltering: false`.
   */
  readonly responseFiltering: boolean;
  /**
   * Check each filtered body against its model; a handler that breaks its contract is a 500
   * (`TERN_RESPONSE_CONTRACT_VIOLATED`, reported to the logger). Default: on when `debug` is.
   */
  readonly validateResponses: boolean;

  /**
   * The key signed cookies are made with (flash messages, `csrf()` tokens). Default: a random key
   * per process, so they stop verifying after a restart and across processes; set one (32+
   * random characters, from the environment) when the app runs in several processes.
   */
  readonly secret?: string;

  constructor(options: MakeConfigOptions = {}) {
    checkConfigKeys(options);
    this.debug = options.debug ?? false;
    this.bodyLimit = positive(options.bodyLimit, 1024 * 1024, 'bodyLimit');
    this.multipartLimit = positive(options.multipartLimit, this.bodyLimit, 'multipartLimit');
    this.jsonDepthLimit = positive(options.jsonDepthLimit, 64, 'jsonDepthLimit');
    this.maxParamLength = positive(options.maxParamLength, 100, 'maxParamLength');
    this.forbidUnknownProperties = options.forbidUnknownProperties === true;
    this.strictModels = options.strictModels === true;
    this.formFieldLimit = positive(options.formFieldLimit, 1000, 'formFieldLimit');
    this.responseFiltering = options.responseFiltering ?? true;
    this.validateResponses = options.validateResponses ?? this.debug;
    if (options.secret !== undefined && (typeof options.secret !== 'string' || options.secret.length < 16)) {
      throw new TernRangeError('TERN_INVALID_LIMIT', 'MakeConfig: secret must be a string of at least 16 characters.');
    }
    this.secret = options.secret;
  }
}

/** What `new MakeConfig()` takes: every setting, each optional. */
export type MakeConfigOptions = Partial<Pick<MakeConfig, keyof typeof CONFIG_KEYS>>;

/**
 * Every key `new MakeConfig()` takes, with the kind of value (its row's check is the constructor's
 * own, with its message); a key missing here, or not a setting, does not compile.
 */
const CONFIG_KEYS = {
  debug: 'flag', bodyLimit: 'limit', multipartLimit: 'limit', jsonDepthLimit: 'limit', maxParamLength: 'limit', forbidUnknownProperties: 'flag',
  strictModels: 'flag', formFieldLimit: 'limit', responseFiltering: 'flag', validateResponses: 'flag', secret: 'key',
} as const satisfies { [K in keyof MakeConfig]?: 'flag' | 'limit' | 'key' };

const CONFIG_NAMES = Object.keys(CONFIG_KEYS);

/** An unknown (`bodylimit`) or wrongly typed flag refused naming the nearest setting, instead of silently keeping the default. */
function checkConfigKeys(options: object): void {
  if (typeof options !== 'object' || options === null) throw new TernTypeError('TERN_INVALID_ARGUMENT', 'new MakeConfig(options): options must be an object.');
  for (const [key, value] of Object.entries(options)) {
    if (!Object.prototype.hasOwnProperty.call(CONFIG_KEYS, key)) {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `new MakeConfig(options): unknown option '${key}'.${nearestHint(key, CONFIG_NAMES)} Its options are ${CONFIG_NAMES.join(', ')}.`);
    }
    if (CONFIG_KEYS[key as keyof typeof CONFIG_KEYS] === 'flag' && value !== undefined && typeof value !== 'boolean') {
      throw new TernTypeError('TERN_INVALID_ARGUMENT', `new MakeConfig(options): ${key} must be true or false.`);
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0) throw new TernRangeError('TERN_INVALID_LIMIT', `MakeConfig: ${name} must be a positive integer.`);
  return value;
}

/** Timeouts of the HTTP server `listen()` starts (milliseconds). */
export interface ServerTimeouts {
  /** Time to receive the whole request (default 30 s); slower clients get a 408. */
  requestTimeout?: number;
  /** Time to receive the headers (default 10 s). */
  headersTimeout?: number;
  /** How long an idle keep-alive connection stays open (default 5 s). */
  keepAliveTimeout?: number;
  /**
   * How long a response may wait for its client to take any byte of it (default 30 s): a client
   * that requested a download or a large answer and stopped reading has its connection destroyed
   * then, freeing the socket, the file descriptor and the unsent body. A slow client that keeps
   * reading is never cut. `Infinity` waits for ever.
   */
  sendTimeout?: number;
  /**
   * How long `app.close()` lets in-flight responses finish (default 10 s); then it destroys the
   * connections still open (a stream that never ends) and resolves. `Infinity` waits for ever.
   */
  closeTimeout?: number;
}
