import { Convertor } from './convertor';
import {
  FloatConvertor,
  IntegerConvertor,
  Int32Convertor,
  PathConvertor,
  SlugConvertor,
  StringConvertor,
  UUIDConvertor,
} from './builtins';
import { TernError } from '../errors';
import { assertSafeConverterRegex } from './regex-safety';

/**
 * The converters known by name. It is process-wide, like Starlette's: converters are part of the
 * path language, and a route file or controller must not need an app reference to use one.
 */
const registry = new Map<string, Convertor>([
  ['str', new StringConvertor()],
  ['path', new PathConvertor()],
  ['int', new IntegerConvertor()],
  ['int32', new Int32Convertor()],
  ['float', new FloatConvertor()],
  ['uuid', new UUIDConvertor()],
  ['slug', new SlugConvertor()],
]);

const BUILT_IN = new Set(registry.keys());

/**
 * The built-ins' patterns, checked by hand (each repetition of `[0-9]+(\.[0-9]+)?` and
 * `[a-z0-9]+(?:-[a-z0-9]+)*` must start with a character the one before cannot end with, so
 * matching is linear) and by redos-detector: accepted without analysis, which saves startup the
 * ~300 ms the UUID pattern costs. Taken at load time, before any code could reassign a built-in's
 * `regex`.
 */
const HAND_CHECKED = new Set([...registry.values()].map((convertor) => convertor.regex));

/** Names registered with `allowUnsafeRegex`: their patterns are not checked again when paths compile. */
const unsafeAllowed = new Set<string>();

/** Options of `registerUrlConvertor`. */
export interface RegisterConvertorOptions {
  /**
   * Accept a pattern redos-detector finds can backtrack catastrophically (two ways through it
   * match the same text, as in `([a-z0-9]+-?)+` or `(?:\w|\d)+`) or cannot prove safe within its
   * step budget. Dangerous: the pattern runs on every request against a value the client chose,
   * and one crafted value of a few dozen characters can hold the event loop for seconds, stalling
   * every other request. Only set it for a pattern you have checked cannot backtrack (each
   * repetition starts with a character the previous one cannot end with).
   */
  allowUnsafeRegex?: boolean;
}

/**
 * Registers a custom converter under `name`, usable as `{param:name}` in any path compiled after
 * this call (routes are compiled in `app.ready()`). A regex that can backtrack catastrophically is
 * refused (`TERN_UNSAFE_CONVERTER_REGEX`) unless `options.allowUnsafeRegex` is set.
 *
 * @example
 * registerUrlConvertor('version', new VersionConvertor());
 * // checked by hand: each '-' starts a new word, so this cannot backtrack
 * registerUrlConvertor('dashed', new DashedConvertor(), { allowUnsafeRegex: true });
 */
export function registerUrlConvertor(name: string, convertor: Convertor, options: RegisterConvertorOptions = {}): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new TernError('TERN_INVALID_CONVERTER', `Converter name '${name}' must be an identifier.`);
  }
  if (BUILT_IN.has(name)) {
    throw new TernError('TERN_INVALID_CONVERTER', `'${name}' is a built-in converter and cannot be replaced.`);
  }
  if (!(convertor instanceof Convertor) || typeof convertor.regex !== 'string') {
    throw new TernError('TERN_INVALID_CONVERTER', `Converter '${name}' must be a Convertor instance with a string regex.`);
  }
  const allowUnsafeRegex = options.allowUnsafeRegex === true;
  assertSafeConverterRegex(convertor.regex, `Converter '${name}'`, { trusted: HAND_CHECKED, allowUnsafeRegex });
  registry.set(name, convertor);
  if (allowUnsafeRegex) unsafeAllowed.add(name);
  else unsafeAllowed.delete(name);
}

/**
 * The converter a path names, checked again as the path compiles: a converter is a plain object
 * whose `regex` may have been reassigned since it was registered. Throws `TERN_UNSAFE_CONVERTER_REGEX`
 * (or `TERN_INVALID_CONVERTER`) naming `where`; undefined when no converter has that name.
 */
export function convertorForPath(name: string, where: string): Convertor | undefined {
  const convertor = registry.get(name);
  if (convertor) {
    const trust = { trusted: HAND_CHECKED, allowUnsafeRegex: unsafeAllowed.has(name) };
    assertSafeConverterRegex(convertor.regex, `${where}: converter '${name}'`, trust);
  }
  return convertor;
}

/**
 * Whether a converter is registered under `name` (the built-ins always are): for tools that
 * check a path before the app compiles it, as the file router does with folder names.
 *
 * @example
 * hasUrlConvertor('int'); // true
 */
export function hasUrlConvertor(name: string): boolean {
  return registry.has(name);
}

/**
 * Maps a converter name to the TypeScript type it yields, so path literals type their params.
 * Extend it for custom converters with declaration merging:
 *
 * @example
 * declare module '@tern/core' {
 *   interface ConverterTypes { version: number }
 * }
 */
export interface ConverterTypes {
  str: string;
  path: string;
  int: number;
  int32: number;
  float: number;
  uuid: string;
  slug: string;
}
