import { requestError } from '../errors/request-error';

/**
 * A urlencoded form as a null-prototype object: each name maps to its value, or to the list of
 * its values when it repeats. With no prototype, a field named `__proto__`, `constructor` or
 * `hasOwnProperty` is an ordinary own key and changes no object's behaviour.
 */
export type FormFields = Record<string, string | string[]>;

/**
 * Parses `application/x-www-form-urlencoded` text (WHATWG rules, as `URLSearchParams`). More
 * than `fieldLimit` fields is a 413: the count is checked on the raw text before any decoding.
 */
export function parseForm(text: string, fieldLimit: number): FormFields {
  if (countFields(text, fieldLimit) > fieldLimit) {
    throw requestError('TERN_FORM_TOO_MANY_FIELDS', `The form has more than ${fieldLimit} fields (formFieldLimit).`);
  }
  const out: FormFields = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) addField(out, name, value);
  return out;
}

/** Adds one value, turning a repeated name into a list. */
export function addField(out: FormFields, name: string, value: string): void {
  const existing = out[name];
  if (existing === undefined) out[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else out[name] = [existing, value];
}

/** Non-empty `&`-separated pieces, counting no further than `stopAfter + 1`. */
function countFields(text: string, stopAfter: number): number {
  let count = 0;
  let start = 0;
  while (start <= text.length && count <= stopAfter) {
    let end = text.indexOf('&', start);
    if (end === -1) end = text.length;
    if (end > start) count++;
    start = end + 1;
  }
  return count;
}
