/**
 * Control characters (C0, DEL, C1) and the bidirectional formatting characters (embeddings,
 * overrides, isolates, LRM, RLM, ALM). A name with them can break a log line or a
 * `Content-Disposition` header built from it (CR, LF, NUL), or read differently from what it is
 * (`invoice\u202Egpj.exe` shows as `invoiceexe.jpg`).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * An uploaded file's name as Tern hands it out: busboy already reduced it to its last path
 * segment; the characters above are removed.
 *
 * @example
 * uploadFileName('invoice\u202Egpj.exe'); // 'invoicegpj.exe'
 */
export function uploadFileName(name: string | undefined): string {
  return name === undefined ? '' : name.replace(UNSAFE, '');
}
