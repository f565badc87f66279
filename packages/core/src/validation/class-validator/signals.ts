/**
 * Non-local exits of the native path, thrown as unique objects (no stack capture) and caught once
 * in the compiled validator: they are rare, and threading them through every return would slow the
 * common case.
 */

/** The input nests deeper than `maxDepth`. */
export const TOO_DEEP = Symbol('tern.validation.tooDeep');

/**
 * The input holds something only class-transformer + class-validator can treat faithfully (a
 * non-JSON object, an own `constructor` key in an untyped object, a runtime class the compiler
 * could not handle): the whole input is re-validated on the fallback path.
 */
export const NEEDS_FALLBACK = Symbol('tern.validation.needsFallback');

/** An object of the input has more than `maxKeys` properties. */
export const TOO_MANY_KEYS = Symbol('tern.validation.tooManyKeys');

/**
 * class-transformer would throw building the instance (an untyped nested object whose own
 * `constructor` key holds a truthy value: it calls `new` on that value).
 */
export const NOT_CONVERTIBLE = Symbol('tern.validation.notConvertible');
