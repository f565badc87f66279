/**
 * The problem+json answers Tern itself gives an operation, documented automatically. Each is
 * true of the route as compiled: 413 everywhere (the body limit is checked before every handler),
 * 414 where the path has parameters (each is at most `maxParamLength` characters),
 * 400 where a body is read and 415 where its media types are narrowed, 422 where input is converted
 * or validated, 401/403 where `enforceSecurity` checks the declared `security` (and 503 where a
 * scheme's keys come from a key server), 429 (and 503 when a store failure refuses) where a
 * `rateLimit` applies. 404 and 405 are
 * answers about paths and methods no operation owns, so no operation lists them.
 */
import type { ReferenceObject, ResponseObject, ResponsesObject, SchemaObject } from 'openapi3-ts/oas31';
import type { MatchedRoute } from '../http/matched-route';

const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const PROBLEM_PROPERTIES: Record<string, SchemaObject> = {
  type: { type: 'string', description: 'A URI reference naming the problem type; `about:blank` for plain HTTP statuses.' },
  title: { type: 'string', description: 'The HTTP status text.' },
  status: { type: 'integer', description: 'The HTTP status code.' },
  detail: { type: 'string', description: 'What went wrong with this request.' },
  instance: { type: 'string', description: 'The path of the request.' },
  // ASCII only ("TERN_*", not an ellipsis): one non-Latin-1 character makes the whole document's
  // JSON a two-byte string, twice the memory and slower to serialize (docs/performance-log.md).
  code: { type: 'string', description: "Tern's stable error code (`TERN_*`), when Tern answered." },
};

/** What every framework-made error body is (errors/problem.ts). */
const PROBLEM_SCHEMA: SchemaObject = {
  type: 'object',
  description: 'An RFC 9457 problem details object.',
  properties: PROBLEM_PROPERTIES,
  required: ['type', 'title', 'status', 'instance'],
};

/** What Tern answers when a path value, a query value or a request body fails validation. */
const VALIDATION_PROBLEM_SCHEMA: SchemaObject = {
  ...PROBLEM_SCHEMA,
  description: 'An RFC 9457 problem: `errors` names each value that failed, by its dotted path.',
  properties: {
    ...PROBLEM_PROPERTIES,
    errors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { path: { type: 'string' }, message: { type: 'string' } },
        required: ['path', 'message'],
      },
    },
  },
};

/**
 * `$ref`s to the two problem schemas, handed out while operations are built and pointed at their
 * component names once every user model has claimed its own (a user class called `Problem` keeps
 * its name; Tern's becomes `Problem_2`).
 */
export class ProblemRefs {
  readonly problem: ReferenceObject[] = [];
  readonly validation: ReferenceObject[] = [];

  /**
   * @param errorBody the app's own error body (`openapi.problemResponses: { schema }`): when given, every error
   * answer is documented with it instead of a problem.
   */
  constructor(private readonly errorBody?: { mediaType: string; schema: () => SchemaObject | ReferenceObject | undefined }) {}

  ref(kind: 'problem' | 'validation'): ReferenceObject {
    const ref: ReferenceObject = { $ref: '' };
    (kind === 'problem' ? this.problem : this.validation).push(ref);
    return ref;
  }

  /** A response whose body is a problem of that kind. */
  response(description: string, kind: 'problem' | 'validation' = 'problem'): ResponseObject {
    if (this.errorBody) return { description, content: { [this.errorBody.mediaType]: { schema: this.errorBody.schema() ?? {} } } };
    return { description, content: { [PROBLEM_MEDIA_TYPE]: { schema: this.ref(kind) } } };
  }

  /** The components to add (name → schema), with every `$ref` handed out pointed at its name. */
  components(taken: ReadonlySet<string>): Array<[string, SchemaObject]> {
    const out: Array<[string, SchemaObject]> = [];
    const names = new Set(taken);
    for (const [base, refs, schema] of [
      ['Problem', this.problem, PROBLEM_SCHEMA],
      ['ValidationProblem', this.validation, VALIDATION_PROBLEM_SCHEMA],
    ] as const) {
      if (refs.length === 0) continue;
      let name: string = base;
      for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
      names.add(name);
      out.push([name, structuredClone(schema)]);
      for (const ref of refs) ref.$ref = `#/components/schemas/${name}`;
    }
    return out;
  }
}

/**
 * The route's `problems` option: errors its handler throws as `HTTPException`, by status, each
 * with a description. Tern sends those as problems too, so they get the `Problem` schema. A
 * status `responses` declares keeps its declaration.
 */
export function addDeclaredProblems(responses: ResponsesObject, problems: Readonly<Record<number, string>> | undefined, refs: ProblemRefs): void {
  for (const [status, description] of Object.entries(problems ?? {})) if (responses[status] === undefined) responses[status] = refs.response(description);
}

/**
 * Error statuses a route declares with a description only (`@ApiResponse(401, { description })`):
 * where Tern answers that status itself with a problem (an automatic response above) or the route
 * lists it in `problems`, the response keeps that problem body (and the 401's `WWW-Authenticate`)
 * and takes the declared description; any other stays as declared, a description without a body
 * (Tern cannot know what a handler writes). Call it after the automatic and `problems` responses.
 */
export function describeDeclaredProblems(responses: ResponsesObject, descriptions: ReadonlyMap<string, string>): void {
  for (const [status, description] of descriptions) {
    const existing = responses[status] as ResponseObject | undefined;
    responses[status] = existing?.content ? { ...existing, description } : { description };
  }
}

/** What an operation's compiled route can answer by itself. */
export interface ProblemFacts {
  /** The operation documents a request body: Tern reads it, so it can be too large or malformed. */
  body: boolean;
  /** The body is read as JSON only (a request model, or only JSON media types accepted). */
  jsonBody: boolean;
  /** The body is parsed (a request model, or JSON, form or multipart media types accepted): it can be malformed. */
  parsedBody: boolean;
  /** The route declares which media types it accepts, narrower than `*` slash `*` (any other is a 415). */
  consumes: boolean;
  /** Path converters, controller parameters, query models or a request model can refuse input. */
  rejectsInput: boolean;
  /** The longest path parameter accepted, when the route has any (a longer one is a 414). */
  pathParamLimit?: number;
  /** The route's declared `security`, when `enforceSecurity` enforces it; else `undefined`. */
  enforcedSecurity: MatchedRoute['security'];
  /** The names of the OAuth2 schemes, whose requirements list scopes (every other scheme's list roles). */
  scopeSchemes?: ReadonlySet<string>;
  /** The schemes whose verifier fetches keys from a key server (`jwtVerifier({ jwksUri })`): 503 while it is down. */
  keyServerSchemes?: ReadonlySet<string>;
  /** The route's `rateLimit` (its own or inherited), when it has one. */
  rateLimit?: { limit: number; window: number; onStoreError?: 'fail' | 'pass' };
}

/**
 * Adds the automatic problem responses to `responses`; a status the route declares is left as
 * declared.
 */
export function addProblemResponses(responses: ResponsesObject, facts: ProblemFacts, refs: ProblemRefs): void {
  const add = (status: number, make: () => ResponseObject) => {
    if (responses[status] === undefined) responses[status] = make();
  };
  // JSON that does not parse, a multipart body cut short, a Content-Type that cannot be parsed:
  // whatever parses the body (a request model, uploads, the handler) answers 400.
  if (facts.body && facts.parsedBody) add(400, () => refs.response(facts.jsonBody ? 'The body is not valid JSON, or the request is malformed.' : 'The body is malformed (a broken multipart body, an unparsable Content-Type), or the request is.'));
  const security = facts.enforcedSecurity;
  // `[]` or an entry naming no scheme (`[{}]`) lets requests through without credentials.
  if (security && security.length > 0 && security.every((entry) => Object.keys(entry).length > 0)) {
    add(401, () => ({
      ...refs.response('Credentials are missing or not valid.'),
      headers: { 'WWW-Authenticate': { description: 'The challenges of the schemes the route accepts.', schema: { type: 'string' } } },
    }));
    // Only a requirement listing scopes (OAuth2) or roles (other schemes) can be missing one from
    // valid credentials: a 403.
    const listed = security.flatMap((entry) => Object.entries(entry).filter(([, list]) => list.length > 0).map(([name]) => name));
    if (listed.length > 0) {
      const scopes = listed.filter((name) => facts.scopeSchemes?.has(name)).length;
      const what = scopes === listed.length ? 'scope' : scopes === 0 ? 'role' : 'scope or role';
      add(403, () => refs.response(`The credentials are valid but lack a required ${what}.`));
    }
  }
  // The body limit is checked before every handler, whatever the method: a Content-Length over
  // it is refused even on a GET, so every operation can answer 413.
  add(413, () => refs.response('The body is larger than the body limit.'));
  const limit = facts.pathParamLimit;
  if (limit !== undefined) add(414, () => refs.response(`A path parameter is longer than ${limit} characters.`));
  if (facts.body && (facts.jsonBody || facts.consumes)) add(415, () => refs.response('The Content-Type is not one this operation accepts.'));
  if (facts.rejectsInput) add(422, () => refs.response('Validation Error', 'validation'));
  const quota = facts.rateLimit;
  if (quota) {
    add(429, () => ({
      ...refs.response(`More than ${quota.limit} requests from this client in ${quota.window / 1000} s.`),
      headers: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS },
    }));
  }
  const unavailable: string[] = [];
  if (quota && quota.onStoreError !== 'pass') unavailable.push('The rate-limit store did not answer');
  // A sent token is verified even where `{}` lets anonymous requests in, so any entry naming the
  // scheme can meet a key server that is down.
  const keyServers = facts.keyServerSchemes;
  if (security && keyServers && keyServers.size > 0 && security.some((entry) => Object.keys(entry).some((name) => keyServers.has(name)))) {
    unavailable.push('The keys that sign tokens cannot be fetched from their key server');
  }
  if (unavailable.length > 0) add(503, () => ({ ...refs.response(`${unavailable.join(', or ')}; try again shortly.`), headers: { 'Retry-After': RETRY_AFTER } }));
}

const RETRY_AFTER = { description: 'Seconds until the client may try again.', schema: { type: 'integer', minimum: 1 } } as const;
/** The IETF httpapi rate-limit headers (draft-ietf-httpapi-ratelimit-headers), sent on every answer of a limited route. */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': { description: 'The quota: `"default";q=<limit>;w=<window seconds>`.', schema: { type: 'string' } },
  RateLimit: { description: 'What is left: `"default";r=<remaining>;t=<seconds until reset>`.', schema: { type: 'string' } },
} as const;
