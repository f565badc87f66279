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

export class ValueMaker {
  constructor(
    private readonly fc: Fc,
    private readonly document: ContractDocument,
  ) {}

  /** Values `schema` accepts. `safeText` keeps strings to characters a path segment or header carries as is. */
  valid(schema: Schema | undefined, depth = 0, safeText = false): Arbitrary<unknown> {
    const fc = this.fc;
    const s = flatten(schema, this.document);
    if (!s) return fc.constant('x');
    if (s.const !== undefined) return fc.constant(s.const);
    if (s.enum) return fc.constantFrom(...s.enum);
    const choices = s.anyOf ?? s.oneOf;
    if (choices) return fc.oneof(...choices.map((c) => this.valid(c, depth, safeText)));
    const types = s.type === undefined ? [] : [s.type].flat();
    if (types.length > 1) return fc.oneof(...types.map((type) => this.valid({ ...s, type }, depth, safeText)));
    switch (types[0]) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer':
        return fc.integer({ min: lowerBound(s, true), max: upperBound(s, true) }).filter((n) => multipleOk(s, n));
      case 'number':
        return fc.double({ min: lowerBound(s, false), max: upperBound(s, false), noNaN: true, noDefaultInfinity: true, minExcluded: s.exclusiveMinimum !== undefined, maxExcluded: s.exclusiveMaximum !== undefined }).filter((n) => multipleOk(s, n));
      case 'string':
        return this.string(s, safeText);
      case 'array': {
        const items = this.valid(s.items, depth + 1, safeText);
        const constraints = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, Math.max(s.minItems ?? 0, 3)) };
        return s.uniqueItems ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) }) : fc.array(items, constraints);
      }
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
    if (format) return format(fc);
    if (s.pattern !== undefined) {
      const pattern = s.pattern;
      return fc.stringMatching(new RegExp(pattern)).filter((v) => (s.maxLength === undefined || [...v].length <= s.maxLength) && [...v].length >= (s.minLength ?? 0));
    }
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Math.max(min, 24);
    if (safeText) return word(fc, Math.max(min, 1), Math.max(max, 1));
    const plain = text(fc, min, Math.min(max, Math.max(min, 24)));
    // Long strings where the schema sets no bound: what a server is documented to take.
    if (s.maxLength === undefined || s.maxLength > 256) return fc.oneof({ weight: 8, arbitrary: plain }, { weight: 1, arbitrary: text(fc, 200, Math.min(s.maxLength ?? 1000, 1000)) });
    return plain;
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
