/**
 * The requests of the contract check: for one operation of the document, an arbitrary of valid
 * requests and one of requests broken in one place, each a plain object that prints as the
 * counterexample and turns into `app.inject()` options.
 */
import type * as FastCheck from 'fast-check';
import type { InjectOptions } from './inject';
import { flatten, type ContractDocument, type Schema, type SecuritySchemeObject } from './contract-schemas';
import { ValueMaker, type FilePart, type Mutation } from './contract-values';

type Fc = typeof FastCheck;

/** What the check reads of an operation. */
export interface Operation {
  method: string;
  path: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema } | { $ref: string }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema; encoding?: Record<string, { contentType?: string }> }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
  /** Statuses a valid request may get from the handler (business rules); see `mayRefuse` of `checkContract`. */
  'x-may-refuse'?: number[];
  security?: Array<Record<string, string[]>>;
}

/** One generated request: what the counterexample shows. */
export interface ContractRequest {
  /**
   * `valid` follows every schema of the operation; `invalid` breaks one thing, named by `broken`;
   * `unspecified` carries a body the document gives no schema for, so only the answer is checked.
   */
  kind: 'valid' | 'invalid' | 'unspecified';
  broken?: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The media type of `body`; absent when no body is sent. */
  mediaType?: string;
  body?: unknown;
}

interface Parts {
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  header: Record<string, unknown>;
  cookie: Record<string, unknown>;
  body?: unknown;
}

type Place = keyof Parts;

/** The media types whose bodies the check can write, in the order it prefers them. */
const WRITABLE = ['application/json', 'multipart/form-data', 'application/x-www-form-urlencoded'];

export class RequestMaker {
  private readonly values: ValueMaker;

  constructor(
    private readonly fc: Fc,
    private readonly document: ContractDocument,
    /** Headers and cookies that carry the caller's credentials, by security scheme name. */
    private readonly credentials: (scheme: string, definition: SecuritySchemeObject) => Partial<Pick<Parts, 'header' | 'query' | 'cookie'>> | undefined,
  ) {
    this.values = new ValueMaker(fc, document);
  }

  /** The media type the check sends the operation's body as, or `null` if it documents none it can write. */
  mediaTypeOf(operation: Operation): string | undefined | null {
    const content = operation.requestBody?.content;
    if (!content) return undefined;
    return WRITABLE.find((type) => content[type] !== undefined) ?? null;
  }

  /** Requests of the operation: valid ones, and ones broken in a single place. */
  requests(operation: Operation): FastCheck.Arbitrary<ContractRequest> {
    const fc = this.fc;
    const mediaType = this.mediaTypeOf(operation) ?? undefined;
    const parameters = this.parametersOf(operation);
    const bodySchema = mediaType ? operation.requestBody?.content?.[mediaType]?.schema : undefined;
    const model: Record<string, FastCheck.Arbitrary<unknown>> = { path: fc.constant({}), query: fc.constant({}), header: fc.constant({}), cookie: fc.constant({}) };
    for (const place of ['path', 'query', 'header', 'cookie'] as const) {
      const own = parameters.filter((p) => p.in === place);
      const record: Record<string, FastCheck.Arbitrary<unknown>> = {};
      for (const p of own) record[p.name] = this.values.valid(p.schema, 0, place !== 'query', place === 'path');
      model[place] = fc.record(record, { requiredKeys: own.filter((p) => p.required || place === 'path').map((p) => p.name) });
    }
    if (mediaType) {
      const body = mediaType === 'multipart/form-data' ? this.multipart(operation, bodySchema) : this.values.valid(bodySchema);
      model.body = operation.requestBody?.required ? body : fc.option(body, { nil: undefined, freq: 5 });
    }
    const valid = fc.record(model) as FastCheck.Arbitrary<Parts>;
    const mutations = this.mutationsOf(operation, parameters, bodySchema, mediaType);
    const unspecified = mediaType !== undefined && bodySchema === undefined;
    const toRequest = (parts: Parts, broken?: string) => this.toRequest(operation, parts, mediaType, broken, unspecified);
    const validRequests = valid.map((parts) => toRequest(parts));
    if (mutations.length === 0) return validRequests;
    const invalidRequests = fc
      .tuple(valid, fc.constantFrom(...mutations).chain((m) => (m.value === 'remove' ? fc.constant({ m, value: REMOVE }) : m.value.map((value) => ({ m, value })))))
      .map(([parts, { m, value }]) => {
        const broken = breakOne(parts, m, value);
        return toRequest(broken ?? parts, broken ? m.label : undefined);
      });
    return fc.oneof(validRequests, invalidRequests);
  }

  private parametersOf(operation: Operation): Array<{ name: string; in: Place; required?: boolean; schema?: Schema }> {
    return (operation.parameters ?? []).filter((p): p is { name: string; in: Place; required?: boolean; schema?: Schema } => !('$ref' in p) && ['path', 'query', 'header', 'cookie'].includes(p.in));
  }

  private mutationsOf(operation: Operation, parameters: ReturnType<RequestMaker['parametersOf']>, bodySchema: Schema | undefined, mediaType: string | undefined): Array<Mutation & { place: Place }> {
    const out: Array<Mutation & { place: Place }> = [];
    for (const p of parameters) {
      if (p.required && p.in !== 'path') out.push({ place: p.in, label: `${p.in} parameter ${p.name}: missing though required`, at: [p.name], value: 'remove' });
      // A parameter travels as text: a number where a string is declared is a string again.
      const schema = flatten(p.schema, this.document);
      for (const m of this.values.mutations(p.schema, [p.name])) {
        if (schema?.type === 'string' && /instead of string/.test(m.label)) continue;
        // One value of a list parameter is a one-element list (OpenAPI's form/explode style):
        // only an item of the wrong type breaks it, which the items' own mutations below do.
        if (schema?.type === 'array' && /instead of array/.test(m.label)) continue;
        out.push({ ...m, place: p.in, label: `${p.in} parameter ${m.label}` });
      }
      if (schema?.type === 'array') {
        const items = flatten(schema.items, this.document);
        for (const m of this.values.mutations(schema.items, [p.name])) {
          if (items?.type === 'string' && /instead of string/.test(m.label)) continue;
          out.push({ ...m, place: p.in, label: `${p.in} parameter ${p.name}, one item: ${m.label.slice(p.name.length + 2)}` });
        }
      }
    }
    if (mediaType) {
      if (operation.requestBody?.required) out.push({ place: 'body', label: 'the body: missing though required', at: [], value: 'remove' });
      // Form fields are text too: only JSON carries types a field can get wrong.
      for (const m of this.values.mutations(bodySchema)) {
        if (mediaType !== 'application/json' && /instead of|fraction/.test(m.label)) continue;
        if (mediaType === 'multipart/form-data' && m.at.length === 0) continue;
        out.push({ ...m, place: 'body', label: `body ${m.label}` });
      }
    }
    return out;
  }

  /** A multipart body: fields from the schema, and a small file for each binary property. */
  private multipart(operation: Operation, schema: Schema | undefined): FastCheck.Arbitrary<unknown> {
    const fc = this.fc;
    const s = flatten(schema, this.document);
    const encoding = operation.requestBody?.content?.['multipart/form-data']?.encoding ?? {};
    const required = new Set(s?.required ?? []);
    const model: Record<string, FastCheck.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(s?.properties ?? {})) {
      const p = flatten(property, this.document);
      const items = p?.type === 'array' ? flatten(p.items, this.document) : undefined;
      const file = (target: Schema | undefined) => target?.format === 'binary' || target?.contentMediaType !== undefined;
      const contentType = firstMediaType(encoding[name]?.contentType ?? p?.contentMediaType ?? items?.contentMediaType);
      if (file(p)) model[name] = filePart(fc, name, contentType);
      else if (file(items)) model[name] = fc.array(filePart(fc, name, contentType), { minLength: p?.minItems ?? 1, maxLength: 2 });
      // A form field cannot carry null (the text 'null' is a string): a null field is left out.
      else model[name] = this.values.valid(withoutNull(property, this.document), 1, true);
    }
    return fc.record(model, { requiredKeys: Object.keys(model).filter((name) => required.has(name)) });
  }

  private toRequest(operation: Operation, parts: Parts, mediaType: string | undefined, broken: string | undefined, unspecified: boolean): ContractRequest {
    const headers: Record<string, string> = {};
    const query = new URLSearchParams();
    const cookies: string[] = [];
    const add = (place: Place, values: Record<string, unknown>) => {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) continue;
        const texts = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
        if (place === 'query') for (const t of texts) query.append(name, t);
        else if (place === 'header') headers[name.toLowerCase()] = texts.join(',');
        else if (place === 'cookie') cookies.push(`${name}=${encodeURIComponent(texts.join(','))}`);
      }
    };
    // The first requirement the caller has every credential for.
    for (const requirement of operation.security ?? this.document.security ?? []) {
      const schemes = Object.keys(requirement);
      const given = schemes.map((scheme) => {
        const definition = this.document.components?.securitySchemes?.[scheme];
        return definition && this.credentials(scheme, definition);
      });
      if (schemes.length === 0 || given.some((g) => g === undefined)) continue;
      for (const g of given) for (const place of ['header', 'query', 'cookie'] as const) add(place, g?.[place] ?? {});
      break;
    }
    add('query', parts.query);
    add('header', parts.header);
    add('cookie', parts.cookie);
    if (cookies.length) headers.cookie = cookies.join('; ');
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = parts.path[name];
      return encodeURIComponent(value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
    });
    const search = query.toString();
    const request: ContractRequest = { kind: broken ? 'invalid' : unspecified ? 'unspecified' : 'valid', method: operation.method.toUpperCase(), url: search ? `${path}?${search}` : path, headers };
    if (broken) request.broken = broken;
    if (mediaType && parts.body !== undefined) {
      request.mediaType = mediaType;
      request.body = parts.body;
    }
    return request;
  }
}

const REMOVE = Symbol('remove');

/** A copy of `parts` with the mutation applied; `undefined` when the place it breaks is absent. */
function breakOne(parts: Parts, m: Mutation & { place: Place }, value: unknown): Parts | undefined {
  const copy = structuredClone(parts);
  if (m.place === 'body' && m.at.length === 0) {
    if (value === REMOVE) {
      if (copy.body === undefined) return undefined;
      delete copy.body;
    } else copy.body = value;
    return copy;
  }
  let parent: unknown = m.place === 'body' ? copy.body : copy[m.place];
  for (const key of m.at.slice(0, -1)) parent = parent && typeof parent === 'object' && !Array.isArray(parent) ? (parent as Record<string, unknown>)[key] : undefined;
  if (!parent || typeof parent !== 'object' || Array.isArray(parent)) return undefined;
  const last = m.at[m.at.length - 1];
  const target = parent as Record<string, unknown>;
  if (value === REMOVE) {
    if (!(last in target)) return undefined;
    delete target[last];
  } else target[last] = value;
  return copy;
}

/** The schema without its `null` alternative (`["integer","null"]` → `integer`). */
function withoutNull(schema: Schema | undefined, document: ContractDocument): Schema | undefined {
  const s = flatten(schema, document);
  if (!s) return s;
  const out: Schema = { ...s };
  if (Array.isArray(s.type)) {
    const types = s.type.filter((t) => t !== 'null');
    out.type = types.length === 1 ? types[0] : types;
  }
  if (s.enum) out.enum = s.enum.filter((v) => v !== null);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const rest = s[key]?.filter((c) => flatten(c, document)?.type !== 'null');
    if (rest) out[key] = rest;
  }
  return out;
}

function firstMediaType(list: string | undefined): string {
  const first = list?.split(',')[0].trim();
  return !first || first.includes('*') ? (first?.startsWith('image/') ? 'image/png' : 'application/octet-stream') : first;
}

/** Enough bytes to pass a magic-number check of common types; the rest is filler. */
const MAGIC: Record<string, string> = {
  'image/png': '\x89PNG\r\n\x1a\n',
  'image/jpeg': '\xff\xd8\xff\xe0',
  'image/gif': 'GIF89a',
  'application/pdf': '%PDF-1.7\n',
};

function filePart(fc: Fc, name: string, contentType: string): FastCheck.Arbitrary<FilePart> {
  const extension = contentType.split('/')[1]?.replace(/[^a-z0-9]/g, '') || 'bin';
  return fc.string({ unit: fc.constantFrom(...'abcdef0123456789'), minLength: 1, maxLength: 32 }).map((filler) => ({
    file: true as const,
    filename: `${name}.${extension}`,
    contentType,
    content: (MAGIC[contentType] ?? '') + filler,
  }));
}

/** The `app.inject()` options that send `request`. */
export function injectOptionsOf(request: ContractRequest): InjectOptions {
  const options: InjectOptions = { method: request.method, url: request.url, headers: { ...request.headers } };
  if (request.body === undefined || !request.mediaType) return options;
  const headers = options.headers as Record<string, string>;
  if (request.mediaType === 'application/json') {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(request.body);
  } else if (request.mediaType === 'application/x-www-form-urlencoded') {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    options.payload = formFields(request.body).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v as string)}`).join('&');
  } else {
    const boundary = '----tern-contract-boundary';
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    const chunks: Buffer[] = [];
    for (const [name, value] of formFields(request.body)) {
      const file = typeof value === 'object' && value !== null && (value as FilePart).file ? (value as FilePart) : undefined;
      const disposition = `form-data; name="${name}"${file ? `; filename="${file.filename}"` : ''}`;
      const head = `--${boundary}\r\ncontent-disposition: ${disposition}\r\n${file ? `content-type: ${file.contentType}\r\n` : ''}\r\n`;
      chunks.push(Buffer.from(head), file ? Buffer.from(file.content, 'latin1') : Buffer.from(String(value)), Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    options.payload = Buffer.concat(chunks);
  }
  return options;
}

/** A form's fields in order: arrays become repeated fields; other values become text. */
function formFields(body: unknown): Array<[string, unknown]> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [['value', typeof body === 'string' ? body : JSON.stringify(body)]];
  const out: Array<[string, unknown]> = [];
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      out.push([name, typeof item === 'object' && item !== null && !(item as FilePart).file ? JSON.stringify(item) : typeof item === 'string' || (item as FilePart)?.file ? item : String(item)]);
    }
  }
  return out;
}
