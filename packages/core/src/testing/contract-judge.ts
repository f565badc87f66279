/**
 * How the contract check judges one answer to one generated request: the rules of
 * `checkContract` (a 5xx, an undocumented status, a broken request accepted, a valid one refused,
 * a body its schema refuses or with a property it does not declare), and what is worth a warning
 * (JSON no schema describes).
 */
import type { InjectResponse } from './inject';
import type { ContractDocument, SchemaChecker } from './contract-schemas';
import type { ContractRequest, Operation } from './contract-requests';
import { answerProblem } from './contract-response';
import { isJsonType } from '../http/media-type';

/** The options of `checkContract` the judge reads. */
export interface JudgeOptions {
  /** A credential per scheme, or per role of a scheme (`{ bearerAuth: { admin: token } }`). */
  auth?: Record<string, string | Record<string, string>>;
  untypedJson?: 'warn' | 'fail' | 'ignore';
  allowUndeclaredProperties?: boolean;
}

/** Statuses Tern answers when it refuses the request itself: never right for a valid one. */
const REFUSALS = new Set([400, 413, 415, 422]);

export interface JudgeRules {
  document: ContractDocument;
  schemas: SchemaChecker;
  options: JudgeOptions;
  /** Refusals the operation's handler may give a valid request (`mayRefuse`, `x-may-refuse`). */
  mayRefuse: ReadonlySet<number>;
}

/** What is wrong with the answer, or `undefined`; `warn` hears what is worth saying but no failure. */
export function judge(operation: Operation, request: ContractRequest, response: InjectResponse, rules: JudgeRules, warn: (warning: string) => void): string | undefined {
  const status = response.statusCode;
  const { schemas, options } = rules;
  if (status >= 500) return `answered ${status}${ternCode(response) === 'TERN_UNDECLARED_RESPONSE_STATUS' ? ` (${problemDetail(response)})` : ''}`;
  const documented = operation.responses ?? {};
  if (![String(status), `${String(status)[0]}XX`, 'default'].some((k) => documented[k] !== undefined)) return answerProblem(operation, { method: request.method, status }, schemas);
  if (request.kind === 'invalid' && status < 300) return `accepted a request whose ${request.broken} (answered ${status})`;
  if (request.kind === 'valid' && status >= 400 && status < 500) {
    const code = ternCode(response);
    const allowed = rules.mayRefuse.has(status) && !code?.startsWith('TERN_');
    if (REFUSALS.has(status) && !allowed) return `refused a valid request with ${status}${code ? ` (${code}: ${problemDetail(response)})` : ''}`;
    if (status === 401 && carriesCredentials(operation, rules.document, options.auth, false)) return `refused a valid request with 401, though it carried the credentials its security asks for`;
    if (status === 403 && carriesCredentials(operation, rules.document, options.auth, true)) {
      return `refused a valid request with 403, though it carried the credential \`auth\` gives for the roles its security asks for`;
    }
  }
  // A response documented without `content` says nothing of its body (routes without a response
  // model): only a 204 promises there is none.
  const answer = { method: request.method, status, contentType: header(response, 'content-type'), body: response.rawPayload };
  const problem = answerProblem(operation, answer, schemas, { closedObjects: status < 300 && !options.allowUndeclaredProperties });
  if (problem) return problem;
  if (status < 300 && untypedJson(operation, status, answer.contentType)) {
    const warning = `answered ${status} with JSON its document gives no schema for (a route without a response model: declare \`responses\` so clients can type the body and the check can judge it)`;
    if (options.untypedJson === 'fail') return warning;
    if (options.untypedJson !== 'ignore') warn(warning);
  }
  return undefined;
}

/** The answer is JSON under a 2xx the operation documents without any content. */
function untypedJson(operation: Operation, status: number, contentType: string | undefined): boolean {
  const documented = operation.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => documented[k] !== undefined);
  const content = key === undefined ? undefined : documented[key].content;
  const type = contentType?.split(';')[0].trim().toLowerCase();
  return (!content || Object.keys(content).length === 0) && type !== undefined && isJsonType(type);
}

/** The `code` of a problem answer (`TERN_*` when Tern answered), if the body is one. */
function ternCode(response: InjectResponse): string | undefined {
  return problemOf(response)?.code;
}

function problemDetail(response: InjectResponse): string {
  return problemOf(response)?.detail ?? '';
}

function problemOf(response: InjectResponse): { code?: string; detail?: string } | undefined {
  if (!/json/.test(header(response, 'content-type') ?? '')) return undefined;
  try {
    const body = JSON.parse(response.body) as { code?: unknown; detail?: unknown } | null;
    if (!body || typeof body !== 'object') return undefined;
    return { code: typeof body.code === 'string' ? body.code : undefined, detail: typeof body.detail === 'string' ? body.detail : undefined };
  } catch {
    return undefined;
  }
}

/**
 * The operation requires credentials, and `auth` gives every scheme of one of its requirements
 * (`byRole`: each scheme's credential given for the very roles the requirement lists).
 */
function carriesCredentials(operation: Operation, document: ContractDocument, auth: JudgeOptions['auth'], byRole: boolean): boolean {
  const security = operation.security ?? document.security ?? [];
  // The request carries the first requirement it has every credential for (contract-requests.ts).
  const carried = security.find((entry) => Object.keys(entry).length > 0 && Object.entries(entry).every(([scheme, roles]) => credentialFor(auth?.[scheme], roles).credential !== undefined));
  if (!carried) return false;
  return !byRole || Object.entries(carried).every(([scheme, roles]) => credentialFor(auth?.[scheme], roles).forRoles);
}

/**
 * The credential `auth` gives a scheme for a requirement's roles (with one per role: the first
 * role's, or for no role the first listed), and whether it was given for exactly those roles.
 */
export function credentialFor(given: string | Record<string, string> | undefined, roles: readonly string[]): { credential?: string; forRoles: boolean } {
  if (given === undefined || typeof given === 'string') return { credential: given, forRoles: false };
  if (roles.length === 0) return { credential: Object.values(given)[0], forRoles: false };
  const credential = Object.hasOwn(given, roles[0]) ? given[roles[0]] : undefined;
  return { credential, forRoles: credential !== undefined && roles.every((role) => Object.hasOwn(given, role) && given[role] === credential) };
}

/** A response header as one string, or undefined when it was not sent. */
export function header(response: InjectResponse, name: string): string | undefined {
  const value = response.headers[name];
  return value === undefined ? undefined : String(value);
}
