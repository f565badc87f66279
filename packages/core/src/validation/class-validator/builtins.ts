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
const BATCH_GROUP = 'tern.validation.builtins.batch';
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
  if (typeof value === 'function' && batch.handles.has(value)) return batch.handles.get(value);
  return evaluateParked(value, GROUP)?.objectId;
}

function evaluateParked(value: unknown, objectGroup: string): RemoteObject | undefined {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const parking = require('node:inspector') as Record<string, unknown>;
  parking[PROBE_KEY] = value;
  try {
    const expression = `require('node:inspector').${PROBE_KEY}`;
    return post<{ result: RemoteObject }>('Runtime.evaluate', { expression, objectGroup, includeCommandLineAPI: true })?.result;
  } finally {
    delete parking[PROBE_KEY];
  }
}

/**
 * Handles fetched ahead for the functions a model's analysis will ask about. Evaluating one
 * expression per function was most of this module's cost (~0.1 ms each); one evaluation of a
 * list and one read of its elements give them all. They live in their own object group until
 * the outermost `withHandlesFor` ends (nested models are analysed inside their parent's).
 */
const batch = { handles: new Map<Function, string>(), depth: 0 };

/**
 * Runs `analyse` with handles on `candidates` fetched in two protocol calls, so `isBuiltIn` and
 * `definedBy` skip one evaluation each.
 *
 * @example
 * withHandlesFor(candidateFunctions(metas), () => metas.map(compileOne));
 */
export function withHandlesFor<T>(candidates: readonly Function[], analyse: () => T): T {
  batch.depth++;
  try {
    const wanted = [...new Set(candidates)].filter((fn) => !batch.handles.has(fn) && !scripts.has(fn));
    if (wanted.length > 0 && inspector() !== null) {
      const list = evaluateParked(wanted, BATCH_GROUP)?.objectId;
      const elements = propertiesOf(list)?.result ?? [];
      for (const element of elements) {
        const index = Number(element.name);
        if (Number.isInteger(index) && element.value?.objectId !== undefined) batch.handles.set(wanted[index], element.value.objectId);
      }
    }
    return analyse();
  } finally {
    if (--batch.depth === 0 && batch.handles.size > 0) {
      batch.handles.clear();
      post('Runtime.releaseObjectGroup', { objectGroup: BATCH_GROUP });
    }
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
  const wrapper = wrapperOf(constraint);
  if (typeof exported !== 'function' || typeof register !== 'function' || wrapper === undefined) return false;
  try {
    const registerScript = scriptOf(register);
    if (registerScript === undefined) return false;
    const inner = wrappedValidateScript(wrapper, registerScript);
    return inner !== undefined && inner === scriptOf(exported);
  } finally {
    post('Runtime.releaseObjectGroup', { objectGroup: GROUP });
  }
}

/**
 * The `validate` function class-validator calls for a constraint usage: `registerDecorator`'s
 * wrapper for a built-in, the function itself for anything else.
 */
export function wrapperOf(constraint: ConstraintMeta): Function | undefined {
  const own = (constraint.instance as { validate?: unknown } | undefined)?.validate;
  if (typeof own !== 'function') return undefined;
  // A usage another model's fallback already guarded (answerFalseOnThrow) is still the built-in.
  return unguarded.get(own) ?? own;
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
