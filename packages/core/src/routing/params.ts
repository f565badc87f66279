import type { ConverterTypes } from '../converters/registry';

/** `'id:int'` → `{ id: number }`; `'slug'` → `{ slug: string }`. */
type ParamFromDeclaration<D extends string> = D extends `${infer Name}:${infer Conv}`
  ? { [K in Name]: Conv extends keyof ConverterTypes ? ConverterTypes[Conv] : unknown }
  : { [K in D]: string };

type ExtractParams<P extends string> = P extends `${string}{${infer Decl}}${infer Rest}`
  ? ParamFromDeclaration<Decl> & ExtractParams<Rest>
  : unknown;

/**
 * One parameter of a path that is not a literal: its type is unknown at compile time. `any`
 * because the handler states its own parameter types (`{ id }: { id: number }`), which
 * `unknown` values would reject.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a non-literal path's handler names its own parameter types
export type UntypedParam = any;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The converted path parameters a path literal declares, computed at compile time.
 *
 * @example
 * type P = PathParams<'/users/{id:int}/{slug}'>; // { id: number; slug: string }
 */
export type PathParams<P extends string> = string extends P
  ? Record<string, UntypedParam>
  : Simplify<ExtractParams<P> & {}>;
