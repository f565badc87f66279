/**
 * What a request knows about the route that matched it. The HTTP layer defines it and knows no
 * routes: the routing layer's `RouteInfo` implements it, so `http/` never imports `routing/`.
 *
 * @example
 * app.addMiddleware(async (req, res, next) => {
 *   if (req.route?.extra.internalOnly && !isInternal(req)) throw new HTTPException(404);
 *   return next();
 * });
 */
export interface MatchedRoute {
  /** The full declared pattern, every prefix composed, e.g. `/api/v1/users/{id:int}`. */
  readonly rawPath: string;
  /**
   * The pattern as the OpenAPI document writes it, converters left out (`/api/v1/users/{id}`):
   * the route label of Tern's log lines, traces (`http.route`) and metrics. One value per route,
   * whatever clients send.
   */
  readonly template: string;
  readonly methods: readonly string[];
  /** Full name, dotted with the names of the routers around it. */
  readonly name?: string;
  /** Container tags first, then the route's own, without duplicates. */
  readonly tags: readonly string[];
  /** Declared security requirements (alternatives of `{ scheme: scopes }`), if any. */
  readonly security?: ReadonlyArray<Readonly<Record<string, readonly string[]>>>;
  /** The status a plain return value is sent with. */
  readonly statusCode: number;
  /** Where the route was declared, for messages. */
  readonly source: string;
  /** The route's own metadata (`extra` and `x-*` options) for middleware to read. */
  readonly extra: Readonly<Record<string, unknown>>;
}
