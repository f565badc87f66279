/**
 * Writing JSON as UTF-8 bytes into one scratch buffer, for the generated writers (codegen.ts).
 *
 * Why bytes: a body built with `+` is a rope of thousands of string nodes, and V8 walks the
 * whole rope again to flatten it as soon as the response is measured for Content-Length. Bytes
 * written in place and read back as one flat string cost neither the nodes nor the walk
 * (`npm run bench:serializer` shows both).
 *
 * Every helper takes the position to write at and returns the position after what it wrote;
 * `OMITTED` (-1) means "left out", as `undefined` is for `JSON.stringify`. A caller that wrote a
 * label before a value that turns out to be left out simply keeps its old position.
 */
import { TernError } from '../errors/tern-error';
import { hasFourDigitYear, ISO_DATE_LENGTH, quote, writeAny, writeDate, writeIsoDate, writeNumber } from './json-values';

/**
 * The deepest nesting of declared objects and arrays a compiled serializer writes (the root
 * object is 1). The writers recurse, and past ~3,000 levels Node's stack runs out where
 * `JSON.stringify` would not: a clear error at a fixed depth instead (docs/responses.md).
 */
export const MAX_RESPONSE_DEPTH = 1000;

/** The nesting being written now, counted by both engines (codegen.ts, writers.ts). */
export const nesting = { depth: 0 };

/** Refuses a body nested deeper than `MAX_RESPONSE_DEPTH`: a 500, reported with this code. */
export function tooDeep(): never {
  throw new TernError('TERN_RESPONSE_TOO_DEEP', `The response nests declared objects and arrays deeper than ${MAX_RESPONSE_DEPTH} levels; the serializer writes no deeper.`);
}

/** A value that `JSON.stringify` leaves out: the caller keeps the position it had. */
export const OMITTED = -1;

const INITIAL_SIZE = 64 * 1024;
/** A buffer grown past this for one large body is let go once that body has been read back. */
const KEEP_AT_MOST = 1024 * 1024;

/** The scratch buffer, and a `Buffer` over the same memory for Node's native encoders. */
let bytes = new Uint8Array(INITIAL_SIZE);
let encoder = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function useBuffer(next: Uint8Array<ArrayBuffer>): void {
  bytes = next;
  encoder = Buffer.from(next.buffer, next.byteOffset, next.byteLength);
}
/** True while a body is being written: a getter or `toJSON` that serializes another body gets its own buffer. */
let writing = false;

/** Makes room for `size` more bytes at `position`, keeping what was written before it. */
function reserve(position: number, size: number): void {
  if (position + size <= bytes.length) return;
  let next = bytes.length * 2;
  while (next < position + size) next *= 2;
  const grown = new Uint8Array(next);
  grown.set(bytes.subarray(0, position));
  useBuffer(grown);
}

/** A generated writer: writes `value` (met under `key`) at `position`, returns the position after it or `OMITTED`. */
export type ByteWriter = (position: number, value: unknown, key: string | number) => number;

/**
 * Runs `write` from position 0 and reads what it wrote back as one flat string; `undefined`
 * when the value was left out. Re-entrant: a call made while another body is being written
 * (from a getter or a `toJSON`) writes into a buffer of its own.
 *
 * @example
 * writeToString((p, v) => putNumber(p, v as number), 42, ''); // '42'
 */
export function writeToString(write: ByteWriter, value: unknown, key: string | number): string | undefined {
  return written(write, value, key, asString);
}

/**
 * As `writeToString`, but hands back a copy of the UTF-8 bytes: what a response sends. Reading
 * the bytes back as a string costs a UTF-8 decode (slow as soon as one character is not ASCII)
 * and the socket write encodes it all again; a copy is one `memcpy`.
 *
 * @example
 * writeToBytes((p, v) => putString(p, v as string), 'café', ''); // <Buffer 22 63 61 66 c3 a9 22>
 */
export function writeToBytes(write: ByteWriter, value: unknown, key: string | number): Buffer | undefined {
  return written(write, value, key, asBytes);
}

const asString = (end: number): string => encoder.toString('utf8', 0, end);

function asBytes(end: number): Buffer {
  const out = Buffer.allocUnsafe(end);
  encoder.copy(out, 0, 0, end);
  return out;
}

function written<T>(write: ByteWriter, value: unknown, key: string | number, read: (end: number) => T): T | undefined {
  const outer = writing ? bytes : undefined;
  if (outer !== undefined) useBuffer(new Uint8Array(INITIAL_SIZE));
  writing = true;
  try {
    const end = write(0, value, key);
    return end === OMITTED ? undefined : read(end);
  } finally {
    if (outer !== undefined) useBuffer(outer);
    else {
      writing = false;
      if (bytes.length > KEEP_AT_MOST) useBuffer(new Uint8Array(INITIAL_SIZE));
    }
  }
}

/** One byte (`{`, `}`, `[`, `]`, `,`). */
export function putByte(position: number, byte: number): number {
  reserve(position, 1);
  bytes[position] = byte;
  return position + 1;
}

/** The UTF-8 bytes of a label (`,"name":`), made once when the writer is generated. */
export function labelBytes(label: string): Uint8Array {
  return new Uint8Array(Buffer.from(label, 'utf8'));
}

/** Bytes made once (a label). */
export function putBytes(position: number, data: Uint8Array): number {
  const length = data.length;
  reserve(position, length);
  const out = bytes;
  for (let i = 0; i < length; i++) out[position + i] = data[i];
  return position + length;
}

/** Text known to be ASCII: numbers, `true`, `false`, `null`, `{}`. */
export function putAscii(position: number, text: string): number {
  const length = text.length;
  reserve(position, length);
  const out = bytes;
  for (let i = 0; i < length; i++) out[position + i] = text.charCodeAt(i);
  return position + length;
}

/** Any text (already JSON): short ASCII by hand, the rest by Node's UTF-8 encoder. */
function putText(position: number, text: string): number {
  const length = text.length;
  if (length < 64) {
    reserve(position, length);
    const out = bytes;
    for (let i = 0; i < length; i++) {
      const code = text.charCodeAt(i);
      if (code > 127) return putEncoded(position, text);
      out[position + i] = code;
    }
    return position + length;
  }
  return putEncoded(position, text);
}

function putEncoded(position: number, text: string): number {
  reserve(position, text.length * 3);
  return position + encoder.write(text, position, 'utf8');
}

/**
 * A string as a JSON string literal. A short one that is printable ASCII is copied by hand
 * between its quotes; anything else is quoted by `quote` (escapes and all) and encoded.
 */
export function putString(position: number, text: string): number {
  const length = text.length;
  if (length >= 64) return putText(position, quote(text));
  reserve(position, length + 2);
  const out = bytes;
  out[position] = 34;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    if (code < 32 || code === 34 || code === 92 || code > 126) return putText(position, quote(text));
    out[position + 1 + i] = code;
  }
  out[position + 1 + length] = 34;
  return position + length + 2;
}

/** A number as JSON (`NaN` and the infinities as `null`, `-0` as `0`). */
export function putNumber(position: number, value: number): number {
  return putAscii(position, writeNumber(value));
}

/** A `Date` that `isStandardDate` accepted: its quoted ISO string, or `null` when invalid. */
export function putDate(position: number, value: Date): number {
  const time = value.getTime();
  if (!hasFourDigitYear(time)) return putAscii(position, writeDate(value));
  reserve(position, ISO_DATE_LENGTH);
  writeIsoDate(bytes, position, time);
  return position + ISO_DATE_LENGTH;
}

/**
 * Any value under `key`, exactly as `JSON.stringify` writes it (`writeAny`), or `OMITTED`
 * where it leaves the value out. A short list of strings (`tags`, `roles`) is written here,
 * item by item, rather than built as a string first.
 */
export function putAny(position: number, value: unknown, key: string | number): number {
  if (Array.isArray(value) && value.length <= 16 && typeof (value as { toJSON?: unknown }).toJSON !== 'function') {
    const end = putStrings(position, value);
    if (end !== OMITTED) return end;
  }
  const text = writeAny(value, key);
  return text === undefined ? OMITTED : putText(position, text);
}

/** `["a","b"]`, or `OMITTED` when an item is not a string (a hole included): `writeAny` decides then. */
function putStrings(position: number, list: unknown[]): number {
  let end = putByte(position, 91);
  for (let i = 0; i < list.length; i++) {
    const item = list[i];
    if (typeof item !== 'string') return OMITTED;
    if (i > 0) end = putByte(end, 44);
    end = putString(end, item);
  }
  return putByte(end, 93);
}

/** The writers generated code calls (codegen.ts passes them to it by these names). */
export const BYTE_HELPERS = { labelBytes, putAny, putAscii, putBytes, putByte, putNumber, putDate, putString, nesting, tooDeep } as const;
