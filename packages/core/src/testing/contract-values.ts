/**
 * Values for the contract check, from the document's schemas: fast-check arbitraries of values a
 * schema accepts, and the ways to break one (a missing required field, a wrong type, a value out
 * of range, an extra property where none is allowed). Valid values carry undeclared properties
 * where the schema allows them.
 */
import type * as FastCheck from 'fast-check';
import { flatten, resolve, type ContractDocument, type Schema } from './contract-schemas';

type Fc = typeof FastCheck;
type Arbitrary<T> = FastCheck.Arbitrary<T>;

/** How deep nested models are generated and broken; deeper levels get their required fields only. */
const MAX_DEPTH = 4;

/** A file part of a multipart body, as the check sends it. */
export interface FilePart {
  readonly file: true;
  filename: string;
  contentType: string;
  content: string;
}

/** One way to make a valid value invalid: `label` says how, for the counterexample. */
export interface Mutation {
  label: string;
  /** The property path it breaks, `[]` for the value itself. */
  at: string[];
  /** `undefined` removes the property; a function receives the valid value there. */
  value: Arbitrary<unknown> | 'remove';
}

const FORMATS: Record<string, (fc: Fc) => Arbitrary<string>> = {
  'date-time': (fc) => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  date: (fc) => fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  // The plain shape every validator agrees on (local@label.tld): the edges of "email" are
  // each library's own, and the check looks for disagreements of the framework, not of RFC 5322.
  // ValueMaker marks each to be made unique in the run (UNIQUE_MARK).
  email: (fc) =>
    fc
      .tuple(word(fc, 1, 12), word(fc, 1, 12), fc.constantFrom('com', 'org', 'net', 'dev', 'io'))
      .map(([local, domain, tld]) => `${local}@${domain}.${tld}`),
  uuid: (fc) => fc.uuid(),
  uri: (fc) => fc.webUrl(),
  url: (fc) => fc.webUrl(),
};

function word(fc: Fc, minLength: number, maxLength: number): Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength, maxLength });
}

/** Characters for strings: ASCII most of the time, and letters from beyond Latin-1 and the BMP. */
function text(fc: Fc, minLength: number, maxLength: number): Arbitrary<string> {
  const unit = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789-_.') }, { weight: 1, arbitrary: fc.constantFrom('é', 'ß', 'Ω', '中', '文', '😀', '𝄞') });
  return fc.string({ unit, minLength, maxLength });
}

/** Bounds beyond which the check does not build a value at the edge (it would only cost time). */
const MAX_EDGE_ITEMS = 100;
const MAX_EDGE_LENGTH = 4096;

/** Where a 32-bit integer column ends: ids are generated on both sides of it. */
const INT32_EDGES = [2 ** 31 - 1, 2 ** 31];

/**
 * Where a generated value must be unique in the run: emails, what apps keep unique (a second
 * sign-up with one is a business-rule 422). Each request gets a fresh suffix there just before it
 * is sent (`fillUnique`), so neither two requests nor a shrinking step that keeps or shrinks an
 * email meet a collision the app rightly refuses. Letters and underscores only: a URL carries it
 * as it is.
 */
export const UNIQUE_MARK = '__tern_unique__';

/** `value` (a request) with every `UNIQUE_MARK` replaced by a fresh `next()`. */
export function fillUnique<T>(value: T, next: () => string): T {
  if (typeof value === 'string') return (value.includes(UNIQUE_MARK) ? value.split(UNIQUE_MARK).reduce((out, part) => `${out}${next()}${part}`) : value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => fillUnique(item, next)) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, fillUnique(item, next)])) as T;
  return value;
}

export class ValueMaker {
  constructor(
    private readonly fc: Fc,
    private readonly document: ContractDocument,
  ) {}

  /**
   * Values `schema` accepts, with its edges among them (arrays of `minItems` and of `maxItems`
   * items, strings of `maxLength`, numbers at their bounds). `safeText` keeps strings to
   * characters a path segment or header carries as is; `inPath` adds 2^31-1 and 2^31 to the
   * integers an id may be, where a 32-bit column ends.
   */
  valid(schema: Schema | undefined, depth = 0, safeText = false, inPath = false): Arbitrary<unknown> {
    const fc = this.fc;
    const s = flatten(schema, this.document);
    if (!s) return fc.constant('x');
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const choices = s.anyOf ?? s.oneOf;
    if (choices) return fc.oneof(...choices.map((c) => this.valid(c, depth, safeText, inPath)));
    const types = s.type === undefined ? [] : [s.type].flat();
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...s, type }, depth, safeText, inPath)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const [min, max] = [lowerBound(s, true), upperBound(s, true)];
        const edges = [min, max, ...(inPath ? INT32_EDGES : [])].filter((n) => n >= min && n <= max && multipleOk(s, n));
        return withEdges(fc, fc.integer({ min, max }).filter((n) => multipleOk(s, n)), edges);
      }
      case 'number': {
        const edges = [s.minimum, s.maximum].filter((n): n is number => n !== undefined && multipleOk(s, n));
        const inside = fc.double({ min: lowerBound(s, false), max: upperBound(s, false), noNaN: true, noDefaultInfinity: true, minExcluded: s.exclusiveMinimum !== undefined, maxExcluded: s.exclusiveMaximum !== undefined }).filter((n) => multipleOk(s, n));
        return withEdges(fc, inside, edges);
      }
      case 'string':
        return this.string(s, safeText);
      case 'array':
        return this.array(s, depth, safeText);
      case 'object':
      case undefined:
        if (!s.properties && types[0] === undefined) return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.boolean());
        return this.object(s, depth);
      default:
        return fc.constant(null);
    }
  }

  private string(s: Schema, safeText: boolean): Arbitrary<string> {
    const fc = this.fc;
    if (s.format === 'binary' || s.contentMediaType !== undefined) return fc.constant('');
    const format = s.format === undefined ? undefined : FORMATS[s.format];
    if (format) return s.format === 'email' ? format(fc).map((email) => email.replace('@', `.${UNIQUE_MARK}@`)) : format(fc);
    if (s.pattern !== undefined) {
      const pattern = s.pattern;
      return fc.stringMatching(new RegExp(pattern)).filter((v) => (s.maxLength === undefined || [...v].length <= s.maxLength) && [...v].length >= (s.minLength ?? 0));
    }
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, 24);
    if (safeText) {
      const safe = word(fc, Math.max(min, 1), Math.max(max, 1));
      return s.maxLength !== undefined && s.maxLength > 0 && s.maxLength <= MAX_EDGE_LENGTH ? withEdges(fc, safe, [], word(fc, s.maxLength, s.maxLength)) : safe;
    }
    const plain = text(fc, min, Math.min(max, Math.max(min, 24)));
    // Long strings where the schema sets no bound: what a server is documented to take.
    if (s.maxLength === undefined || s.maxLength > MAX_EDGE_LENGTH) return fc.oneof({ weight: 8, arbitrary: plain }, { weight: 1, arbitrary: text(fc, 200, Math.min(s.maxLength ?? 1000, 1000)) });
    // A string of exactly maxLength characters (code points, as validators count them).
    return withEdges(fc, plain, [], text(fc, s.maxLength, s.maxLength));
  }

  /** Arrays of up to 3 items mostly, and of exactly `minItems` and `maxItems` now and then. */
  private array(s: Schema, depth: number, safeText: boolean): Arbitrary<unknown> {
    const fc = this.fc;
    const items = this.valid(s.items, depth + 1, safeText);
    const min = s.minItems ?? 0;
    const sized = (minLength: number, maxLength: number) => (s.uniqueItems ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) }) : fc.array(items, { minLength, maxLength }));
    const usual = sized(min, Math.min(s.maxItems ?? 3, Math.max(min, 3)));
    const edges = [min, ...(s.maxItems !== undefined && s.maxItems <= MAX_EDGE_ITEMS ? [s.maxItems] : [])].filter((n, i, all) => all.indexOf(n) === i && n > 3);
    if (edges.length === 0) return usual;
    return withEdges(fc, usual, [], ...edges.map((n) => sized(n, n)));
  }

  private object(s: Schema, depth: number): Arbitrary<unknown> {
    const fc = this.fc;
    const required = new Set(s.required ?? []);
    const model: Record<string, Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      if (resolve(property, this.document)?.readOnly) continue;
      if (depth >= MAX_DEPTH && !required.has(name)) continue;
      model[name] = this.valid(property, depth + 1);
    }
    const declared = fc.record(model, { requiredKeys: Object.keys(model).filter((name) => required.has(name)) });
    const extra = s.additionalProperties;
    if (extra === false || depth >= MAX_DEPTH) return declared;
    // Properties the schema does not name are valid unless `additionalProperties: false`: a
    // server that refuses them, or trips over them, breaks its document. A map's entries follow
    // its value schema.
    const names = word(fc, 1, 8)
      .map((name) => `x_${name}`)
      .filter((name) => !(name in (s.properties ?? {})));
    const values = typeof extra === 'object' ? this.valid(extra, depth + 1) : text(fc, 0, 12);
    return fc.tuple(declared, fc.dictionary(names, values, { maxKeys: typeof extra === 'object' ? 3 : 2 })).map(([known, extras]) => ({ ...extras, ...(known as object) }));
  }

  /** The ways to break a value of `schema`, down to nested properties. */
  mutations(schema: Schema | undefined, at: string[] = [], depth = 0): Mutation[] {
    const fc = this.fc;
    const s = flatten(schema, this.document);
    if (!s || depth > MAX_DEPTH) return [];
    const out: Mutation[] = [];
    const where = at.length ? at.join('.') : 'the value';
    const types = s.type === undefined ? [] : [s.type].flat();
    if (s.anyOf || s.oneOf || s.const !== undefined || types.length !== 1) return out;
    if (s.enum) {
      out.push({ label: `${where}: a value outside its enum`, at, value: fc.constant('__not_in_enum__') });
      return out;
    }
    const wrong = WRONG_TYPE[types[0]];
    if (wrong !== undefined) out.push({ label: `${where}: ${types[0] === 'string' ? 'a number' : 'a string'} instead of ${types[0]}`, at, value: fc.constant(wrong) });
    if (types[0] === 'string' && s.format !== 'binary' && s.contentMediaType === undefined) {
      if (s.maxLength !== undefined) out.push({ label: `${where}: longer than maxLength ${s.maxLength}`, at, value: text(fc, s.maxLength + 1, s.maxLength + 8) });
      if (s.minLength !== undefined && s.minLength > 0) out.push({ label: `${where}: shorter than minLength ${s.minLength}`, at, value: fc.constant('x'.repeat(s.minLength - 1)) });
      if (s.format !== undefined && FORMATS[s.format]) out.push({ label: `${where}: not a ${s.format}`, at, value: fc.constant('not a value of the format') });
    }
    if (types[0] === 'integer' || types[0] === 'number') {
      if (s.maximum !== undefined) out.push({ label: `${where}: above maximum ${s.maximum}`, at, value: fc.constant(s.maximum + 1) });
      if (s.exclusiveMaximum !== undefined) out.push({ label: `${where}: at exclusiveMaximum ${s.exclusiveMaximum}`, at, value: fc.constant(s.exclusiveMaximum) });
      if (s.minimum !== undefined) out.push({ label: `${where}: below minimum ${s.minimum}`, at, value: fc.constant(s.minimum - 1) });
      if (s.exclusiveMinimum !== undefined) out.push({ label: `${where}: at exclusiveMinimum ${s.exclusiveMinimum}`, at, value: fc.constant(s.exclusiveMinimum) });
      if (types[0] === 'integer') out.push({ label: `${where}: a fraction instead of an integer`, at, value: fc.constant(1.5) });
    }
    if (types[0] === 'array' && s.maxItems !== undefined) out.push({ label: `${where}: more than maxItems ${s.maxItems}`, at, value: fc.array(this.valid(s.items, depth + 1), { minLength: s.maxItems + 1, maxLength: s.maxItems + 1 }) });
    if (types[0] === 'array' && s.minItems !== undefined && s.minItems > 0) out.push({ label: `${where}: fewer than minItems ${s.minItems}`, at, value: fc.constant([]) });
    if (types[0] === 'object' && s.properties) {
      const required = new Set(s.required ?? []);
      if (s.additionalProperties === false) out.push({ label: `${where}: an undeclared property`, at: [...at, 'notDeclared'], value: fc.constant('extra') });
      for (const [name, property] of Object.entries(s.properties)) {
        if (resolve(property, this.document)?.readOnly) continue;
        if (required.has(name)) out.push({ label: `${[...at, name].join('.')}: missing though required`, at: [...at, name], value: 'remove' });
        out.push(...this.mutations(property, [...at, name], depth + 1));
      }
    }
    return out;
  }
}

/**
 * `inside` most of the time, and now and then one of `edges` (or a value of `edge`): bounds are
 * where servers break (an off-by-one limit, a column narrower than the document says).
 *
 * One draw in four is an edge, and every value shrinks as `inside` shrinks it, so a failure found
 * at an edge still shrinks to the smallest value inside that fails (`fc.oneof` would keep it at
 * the edge: a constant has nothing to shrink to). An edge `inside` cannot shrink (an array longer
 * than it makes) shrinks by the arbitrary that made it.
 */
function withEdges<T>(fc: Fc, inside: Arbitrary<T>, edges: T[], ...edge: Array<Arbitrary<T>>): Arbitrary<T> {
  const extra = [...(edges.length > 0 ? [fc.constantFrom(...edges)] : []), ...edge];
  if (extra.length === 0) return inside;
  type Random = Parameters<Arbitrary<T>['generate']>[0];
  interface EdgeContext {
    edge: number;
    context: unknown;
  }
  const atEdge = (edge: number, value: FastCheck.Value<T>) => new fc.Value(value.value_, { edge, context: value.context } satisfies EdgeContext);
  // fast-check's combinators (map, filter, chain) come with its Arbitrary class, loaded at run time.
  return new (class extends fc.Arbitrary<T> {
    generate(random: Random, bias: number | undefined): FastCheck.Value<T> {
      const pick = random.nextInt(0, extra.length * 4 - 1);
      return pick < extra.length ? atEdge(pick, extra[pick].generate(random, bias)) : inside.generate(random, bias);
    }
    canShrinkWithoutContext(value: unknown): value is T {
      return inside.canShrinkWithoutContext(value);
    }
    shrink(value: T, context: unknown): FastCheck.Stream<FastCheck.Value<T>> {
      const from = context as EdgeContext | undefined;
      if (from?.edge === undefined) return inside.shrink(value, context);
      if (inside.canShrinkWithoutContext(value)) return inside.shrink(value, undefined);
      return extra[from.edge].shrink(value, from.context).map((shrunk) => atEdge(from.edge, shrunk));
    }
  })();
}

/** A value of another JSON type, one no lenient reading turns into the declared one. */
const WRONG_TYPE: Record<string, unknown> = {
  string: 12345,
  integer: 'not a number',
  number: 'not a number',
  boolean: 'not a boolean',
  array: 'not an array',
  object: 'not an object',
};

function lowerBound(s: Schema, integer: boolean): number {
  const floor = integer ? -1_000_000 : -1e9;
  if (s.minimum !== undefined) return s.minimum;
  if (s.exclusiveMinimum !== undefined) return integer ? s.exclusiveMinimum + 1 : s.exclusiveMinimum;
  return s.maximum !== undefined || s.exclusiveMaximum !== undefined ? Math.min(floor, upperBound(s, integer) - 1000) : floor;
}

function upperBound(s: Schema, integer: boolean): number {
  const ceiling = integer ? 1_000_000 : 1e9;
  if (s.maximum !== undefined) return s.maximum;
  if (s.exclusiveMaximum !== undefined) return integer ? s.exclusiveMaximum - 1 : s.exclusiveMaximum;
  return s.minimum !== undefined ? Math.max(ceiling, s.minimum + 1000) : ceiling;
}

function multipleOk(s: Schema, n: number): boolean {
  return s.multipleOf === undefined || Number.isInteger(n / s.multipleOf);
}
