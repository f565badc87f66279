/**
 * Is this constraint class-validator's own `@IsEmail()` (say), or something else that was
 * registered under the name `isEmail`? Names prove nothing: `registerDecorator({ name: 'isEmail' })`
 * is one call away, and running both on probe values only shows they agree on the probes.
 *
 * class-validator gives its built-ins no identity of their own: every `@IsEmail()` goes through
 * `registerDecorator`, which wraps the decorator's `{ validate }` object in a fresh
 * `CustomConstraint` class that keeps the object in a closure. What does identify the check is
 * its code: the `validate` function of a built-in is written in the same module as the decorator
 * class-validator exports (`IsEmail` in `decorator/string/IsEmail.js`). V8's inspector protocol
 * can read a function's closure and the script it was compiled from, synchronously, in the same
 * process: that is what this module asks, at compile time only.
 *
 * Where the inspector is not available (a Node built without it), nothing is recognised and
 * every model is validated by class-validator itself: slower, never wrong.
 */
import { classValidator } from '../libraries';
import type { ConstraintMeta } from './metadata';

interface RemoteObject {
  objectId?: string;
  description?: string;
  value?: unknown;
}
interface PropertyDescriptor {
  name: string;
  value?: RemoteObject;
}
interface Properties {
  result: PropertyDescriptor[];
  internalProperties?: PropertyDescriptor[];
}
interface Session {
  connect(): void;
  post(method: string, params: object, callback: (error: Error | null, result: unknown) => void): void;
}

const GROUP = 'tern.validation.builtins';
const PROBE_KEY = '__ternValidationProbe';

let session: Session | null | undefined;
const scripts = new WeakMap<Function, string | undefined>();

/** The in-process inspector session, or `null` where there is none. */
function inspector(): Session | null {
  if (session !== undefined) return session;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Session: InspectorSession } = require('node:inspector') as { Session: new () => Session };
    const created = new InspectorSession();
    created.connect();
    session = created;
  } catch {
    session = null;
  }
  return session;
}

/** One protocol call; in-process sessions answer before `post` returns. */
function post<T>(method: string, params: object): T | undefined {
  const current = inspector();
  if (current === null) return undefined;
  let answer: T | undefined;
  current.post(method, params, (error, result) => {
    if (error === null) answer = result as T;
  });
  return answer;
}

function propertiesOf(objectId: string | undefined): Properties | undefined {
  if (objectId === undefined) return undefined;
  return post<Properties>('Runtime.getProperties', { objectId, ownProperties: true });
}

/**
 * A remote handle on `value`, valid until the group is released. The value is parked on the
 * `node:inspector` module object: core modules live in Node's main context, which is where
 * `Runtime.evaluate` runs, even when this code runs in another `vm` context (as under jest).
 */
function handleOf(value: unknown): string | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const parking = require('node:inspector') as Record<string, unknown>;
  parking[PROBE_KEY] = value;
  try {
    const expression = `require('node:inspector').${PROBE_KEY}`;
    return post<{ result: RemoteObject }>('Runtime.evaluate', { expression, objectGroup: GROUP, includeCommandLineAPI: true })?.result.objectId;
  } finally {
    delete parking[PROBE_KEY];
  }
}

function internal(properties: Properties | undefined, name: string): RemoteObject | undefined {
  return properties?.internalProperties?.find((p) => p.name === name)?.value;
}

function scriptOfHandle(objectId: string | undefined): string | undefined {
  const location = internal(propertiesOf(objectId), '[[FunctionLocation]]')?.value as { scriptId?: string } | undefined;
  return location?.scriptId;
}

/** The id of the script `fn` was compiled from. */
function scriptOf(fn: Function): string | undefined {
  if (!scripts.has(fn)) scripts.set(fn, scriptOfHandle(handleOf(fn)));
  return scripts.get(fn);
}

/**
 * The script of the `validate` function of the `{ validate }` object `registerDecorator` wrapped,
 * if `wrapper` is `registerDecorator`'s own wrapper (written in `registerScript`). One handle on
 * the wrapper answers both questions: its location and its closure.
 */
function wrappedValidateScript(wrapper: Function, registerScript: string): string | undefined {
  const own = propertiesOf(handleOf(wrapper));
  const location = internal(own, '[[FunctionLocation]]')?.value as { scriptId?: string } | undefined;
  // The wrapper must be `registerDecorator`'s own, else the closure read below means nothing.
  if (location?.scriptId !== registerScript) return undefined;
  const scopes = propertiesOf(internal(own, '[[Scopes]]')?.objectId);
  for (const scope of scopes?.result ?? []) {
    const validator = propertiesOf(scope.value?.objectId)?.result.find((p) => p.name === 'validator');
    if (validator === undefined) continue;
    const validate = propertiesOf(validator.value?.objectId)?.result.find((p) => p.name === 'validate');
    return scriptOfHandle(validate?.value?.objectId);
  }
  return undefined;
}

/**
 * `true` when `fn` was written in the module of class-validator's exported decorator `decorator`
 * (`@IsOptional()`'s condition is, a look-alike is not).
 *
 * @example
 * definedBy(meta.constraints[0], 'IsOptional');
 */
export function definedBy(fn: Function, decorator: string): boolean {
  const exported = (classValidator() as unknown as Record<string, unknown>)[decorator];
  if (typeof exported !== 'function') return false;
  try {
    const script = scriptOf(fn);
    return script !== undefined && script === scriptOf(exported);
  } finally {
    post('Runtime.releaseObjectGroup', { objectGroup: GROUP });
  }
}

/**
 * `true` when `constraint` is the check class-validator's exported decorator `decorator`
 * registers (`'IsEmail'`), by the identity of its code; `false` for anything else.
 *
 * @example
 * isBuiltIn(constraintsOf(meta)[0], 'IsEmail'); // true for @IsEmail(), false for a look-alike
 */
export function isBuiltIn(constraint: ConstraintMeta, decorator: string): boolean {
  const library = classValidator() as unknown as Record<string, unknown>;
  const exported = library[decorator];
  const register = library.registerDecorator;
  const own = (constraint.instance as { validate?: unknown } | undefined)?.validate;
  // A usage another model's fallback already guarded (answerFalseOnThrow) is still the built-in.
  const wrapper = (typeof own === 'function' && unguarded.get(own)) || own;
  if (typeof exported !== 'function' || typeof register !== 'function' || typeof wrapper !== 'function') return false;
  try {
    const registerScript = scriptOf(register);
    if (registerScript === undefined) return false;
    const inner = wrappedValidateScript(wrapper, registerScript);
    return inner !== undefined && inner === scriptOf(exported);
  } finally {
    post('Runtime.releaseObjectGroup', { objectGroup: GROUP });
  }
}

const GUARDED = Symbol('tern.validation.guarded');
/** Each guard installed by answerFalseOnThrow, mapped to the function it wraps. */
const unguarded = new WeakMap<Function, Function>();

/**
 * Makes class-validator's own instance of a built-in check answer `false` where it would throw
 * (validator's `isEmail` throws `URIError` on `"\ud800"`), so the fallback path reports the
 * field as invalid instead of failing the request with a 500. The instance belongs to this one
 * decorator usage (class-validator makes a class per usage and keeps one instance of it), so
 * nothing else changes.
 *
 * @example
 * answerFalseOnThrow(constraintsOf(meta)[0]); // once, at compile time
 */
export function answerFalseOnThrow(constraint: ConstraintMeta): void {
  const instance = constraint.instance as { validate: (value: unknown, args?: unknown) => unknown; [GUARDED]?: true };
  if (instance[GUARDED]) return;
  const validate = instance.validate;
  instance.validate = function guarded(this: unknown, value: unknown, args?: unknown): unknown {
    try {
      return validate.call(this, value, args);
    } catch {
      return false;
    }
  };
  unguarded.set(instance.validate, validate);
  instance[GUARDED] = true;
}
