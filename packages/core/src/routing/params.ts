import type { ConverterTypes } from '../converters/registry';
import type { UntypedParam } from '../http/request';

/** `'id:int'` → `{ id: number }`; `'slug'` → `{ slug: string }`. */
type ParamFromDeclaration<D extends string> = D extends `${infer Name}:${infer Conv}`
  ? { [K in Name]: Conv extends keyof ConverterTypes ? ConverterTypes[Conv] : unknown }
  : { [K in D]: string };

type ExtractParams<P extends string> = P extends `${string}{${infer Decl}}${infer Rest}`
  ? ParamFromDeclaration<Decl> & ExtractParams<Rest>
  : unknown;

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
