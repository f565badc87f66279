/**
 * The response side of the contract check: is an answer one the operation documents (its status,
 * its content type, its body against the schema of that status)? Used by `checkContract` for
 * answers of `app.inject()`, and by `checkResponse` for answers a client got over the wire.
 */
import type { Operation } from './contract-requests';
import { SchemaChecker, type ContractDocument } from './contract-schemas';
import { isJsonType } from '../http/media-type';

/**
 * An answer as a client received it: what `checkResponse` judges.
 *
 * @example
 * const answer: ContractAnswer = { method: 'GET', status: 200, contentType: 'application/json', body: '{"id":7}' };
 */
export interface ContractAnswer {
  /** The request's method, `'GET'` (a HEAD answer carries no body). */
  method: string;
  status: number;
  /** The `content-type` header, if any. */
  contentType?: string | null;
  /** The body as sent, as text or bytes; empty or absent when there was none. */
  body?: string | Uint8Array;
}

export interface AnswerRules {
  /**
   * A body under a status the document describes without `content` is a finding. A generated
   * client types such a body as absent; the check of an app's own routes leaves it alone (a
   * route without a response model documents no schema it could be held to).
   */
  bodyNeedsContent?: boolean;
  /**
   * Judge object schemas with declared `properties` and no `additionalProperties` as closed: a
   * property they do not declare is reported as undeclared (a leak past the response filter).
   */
  closedObjects?: boolean;
}

/** What is wrong with `answer` as an answer of `operation`, or `undefined`. */
export function answerProblem(operation: Pick<Operation, 'responses'>, answer: ContractAnswer, schemas: SchemaChecker, rules: AnswerRules = {}): string | undefined {
  const status = answer.status;
  const documented = operation.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => documented[k] !== undefined);
  if (key === undefined) return `answered ${status}, which the operation does not document (it documents ${Object.keys(documented).join(', ')})`;
  const content = documented[key].content;
  const type = answer.contentType ?? undefined;
  const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? '' : Buffer.from(answer.body).toString('utf8');
  const hasBody = answer.body !== undefined && answer.body.length > 0;
  const noBodyExpected = answer.method.toUpperCase() === 'HEAD' || status === 204 || status === 304;
  if (!content || Object.keys(content).length === 0) {
    if (hasBody && status === 204) return `sent a body with 204`;
    if (hasBody && rules.bodyNeedsContent && !noBodyExpected) return `sent a body with ${status}, which the document describes without content (${type ?? 'no content type'}: ${text.slice(0, 80)})`;
    return undefined;
  }
  if (!hasBody) return noBodyExpected ? undefined : `sent no body with ${status}, which documents ${Object.keys(content).join(', ')}`;
  const mediaType = type?.split(';')[0].trim().toLowerCase();
  const match = mediaType === undefined ? undefined : Object.keys(content).find((documentedType) => mediaMatches(documentedType, mediaType));
  if (match === undefined) return `answered ${status} as ${type ?? 'no content type'}, which documents ${Object.keys(content).join(', ')}`;
  const schema = content[match].schema;
  if (!schema || !isJsonType(mediaType as string)) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} with a body that is not JSON, as ${type}`;
  }
  const mismatch = schemas.check(schema, body);
  if (mismatch) return `answered ${status} with a body its schema refuses: ${mismatch}`;
  const undeclared = rules.closedObjects ? schemas.check(schema, body, { closed: true }) : undefined;
  return undeclared ? `answered ${status} with a property its schema does not declare, which a filtered route never sends (is responseFiltering off?): ${undeclared}` : undefined;
}

function mediaMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.split(';')[0].trim().toLowerCase().split('/');
  const [actualType, actualSubtype] = actual.split('/');
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype);
}

const checkers = new WeakMap<object, SchemaChecker>();

/**
 * Checks one answer a client received against the OpenAPI document it was generated from: the
 * status is documented for the operation, the content type is one of that status's media types,
 * and a JSON body matches its schema (ajv, JSON Schema 2020-12, formats included). A body under
 * a status documented without `content` is a finding too, since a generated client types it as
 * absent. Returns `undefined` when the answer keeps the document, else what is wrong with it.
 * The same rules as `checkContract`; ajv and ajv-formats must be installed.
 *
 * @example
 * const document = await (await fetch(`${base}/openapi.json`)).json();
 * const response = await fetch(`${base}/users/7`);
 * const problem = checkResponse(document, 'GET', '/users/{id}', {
 *   status: response.status,
 *   contentType: response.headers.get('content-type'),
 *   body: await response.text(),
 * });
 * expect(problem).toBeUndefined();   // e.g. '404 ... /title must be string' otherwise
 */
export function checkResponse(document: object, method: string, path: string, answer: Omit<ContractAnswer, 'method'>): string | undefined {
  const operation = (document as ContractDocument).paths?.[path]?.[method.toLowerCase()] as Pick<Operation, 'responses'> | undefined;
  if (!operation) return `${method.toUpperCase()} ${path} is not an operation of the document`;
  let schemas = checkers.get(document);
  if (!schemas) checkers.set(document, (schemas = new SchemaChecker(document as ContractDocument)));
  const problem = answerProblem(operation, { ...answer, method }, schemas, { bodyNeedsContent: true });
  return problem && `${method.toUpperCase()} ${path} ${problem}`;
}
