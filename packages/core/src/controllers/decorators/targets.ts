/** Shared by the decorator files: where a decorator was applied, and what it may write to. */
import { TernError } from '../../errors';
import { classLevel, methodMeta, type LevelMeta, type MethodMeta } from '../metadata';

/**
 * A decorator usable on a class (it then applies to every route of the controller) or on a
 * method (that route only).
 */
export type ClassOrMethodDecorator = (target: object, propertyKey?: string | symbol, descriptor?: PropertyDescriptor) => void;

/** A decorator usable on route methods only. */
export type RouteMethodDecorator = (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor) => void;

/** Thrown while a class is being defined, when a decorator is given bad arguments or put in the wrong place. */
export function misuse(message: string): TernError {
  return new TernError('TERN_DECORATOR_MISUSE', message);
}

function describeTarget(target: object, key: string | symbol): string {
  const cls = typeof target === 'function' ? target : target.constructor;
  return `${cls?.name || '(anonymous class)'}.${String(key)}`;
}

/** The metadata of the decorated method, after checking it is an instance method. */
export function methodTarget(decorator: string, target: object, key: string | symbol | undefined, descriptor?: PropertyDescriptor): MethodMeta {
  if (key === undefined) throw misuse(`${decorator} decorates route methods, not classes.`);
  if (typeof target === 'function') {
    throw misuse(`${decorator} on static method ${describeTarget(target, key)}: routes are instance methods.`);
  }
  if (!descriptor || typeof descriptor.value !== 'function') {
    throw misuse(`${decorator} on ${describeTarget(target, key)}: it decorates methods, and this is not one.`);
  }
  return methodMeta(target, key);
}

/** Class-level metadata for a class, method-level metadata for a method. */
export function levelTarget(decorator: string, target: object, key: string | symbol | undefined, descriptor?: PropertyDescriptor): LevelMeta {
  if (key === undefined) {
    if (typeof target !== 'function') throw misuse(`${decorator} decorates controller classes and route methods.`);
    return classLevel(target);
  }
  return methodTarget(decorator, target, key, descriptor);
}

/** A decorator that sets one flag on its class or method: `@Deprecated()`, `@ExcludeFromSchema()`, `@Public()`. */
export function flagDecorator(label: string, flag: 'deprecated' | 'excludeFromSchema' | 'public'): () => ClassOrMethodDecorator {
  return () => (target, key, descriptor) => {
    levelTarget(label, target, key, descriptor)[flag] = true;
  };
}

/** Decorators apply bottom-up; putting each one's items first keeps the order they are written in. */
export function prepend<T>(list: T[], items: readonly T[]): void {
  list.unshift(...items);
}

export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
