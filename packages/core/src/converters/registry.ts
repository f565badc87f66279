import { Convertor } from './convertor';
import {
  FloatConvertor,
  IntegerConvertor,
  PathConvertor,
  SlugConvertor,
  StringConvertor,
  UUIDConvertor,
} from './builtins';
import { TernError } from '../errors';

/**
 * The converters known by name. It is process-wide, like Starlette's: converters are part of the
 * path language, and a route file or controller must not need an app reference to use one.
 */
const registry = new Map<string, Convertor<any>>([
  ['str', new StringConvertor()],
  ['path', new PathConvertor()],
  ['int', new IntegerConvertor()],
  ['float', new FloatConvertor()],
  ['uuid', new UUIDConvertor()],
  ['slug', new SlugConvertor()],
]);

const BUILT_IN = new Set(registry.keys());

/**
 * Registers a custom converter under `name`, usable as `{param:name}` in any path compiled after
 * this call (routes are compiled in `app.ready()`).
 *
 * @example
 * registerUrlConvertor('version', new VersionConvertor());
 */
export function registerUrlConvertor(name: string, convertor: Convertor<any>): void {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new TernError('TERN_INVALID_CONVERTER', `Converter name '${name}' must be an identifier.`);
  }
  if (BUILT_IN.has(name)) {
    throw new TernError('TERN_INVALID_CONVERTER', `'${name}' is a built-in converter and cannot be replaced.`);
  }
  if (!(convertor instanceof Convertor) || typeof convertor.regex !== 'string') {
    throw new TernError('TERN_INVALID_CONVERTER', `Converter '${name}' must be a Convertor instance with a string regex.`);
  }
  try {
    new RegExp(convertor.regex);
  } catch (err) {
    throw new TernError('TERN_INVALID_CONVERTER', `Converter '${name}' has an invalid regex: ${(err as Error).message}`);
  }
  registry.set(name, convertor);
}

/** The converter registered under `name`, or undefined. */
export function getConvertor(name: string): Convertor<any> | undefined {
  return registry.get(name);
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
  float: number;
  uuid: string;
  slug: string;
}
