/**
 * A Standard Schema compiled into the validator shape class-validator models have
 * (`ModelValidator`): the library's `~standard.validate`, awaited when it answers a promise, its
 * issues turned into Tern's `{ path, message }` with dotted paths and the same `maxIssues` cap.
 */
import { resolveOptions, type CompileOptions, type ModelValidator, type ValidationIssue, type ValidationResult } from '../types';
import type { StandardSchemaV1 } from './spec';

/**
 * The validator of one Standard Schema, made once per route at startup. A success hands on the
 * library's output (transforms, coercions, defaults applied). The library decides what happens to
 * undeclared keys (zod's `z.object` strips them, `z.strictObject` refuses them), so `whitelist`
 * and `forbidNonWhitelisted` do not apply; `maxIssues` does.
 *
 * @example
 * const validate = compileStandardSchema(z.object({ name: z.string() }));
 * await validate({ name: 1 }); // { ok: false, errors: [{ path: 'name', message: 'Invalid input: expected string, received number' }] }
 */
export function compileStandardSchema<T>(schema: StandardSchemaV1<unknown, T>, options?: CompileOptions): ModelValidator<T> {
  const { maxIssues } = resolveOptions(options);
  const props = schema['~standard'];
  const answer = (result: StandardSchemaV1.Result<T>): ValidationResult<T> =>
    result.issues === undefined ? { ok: true, value: result.value } : failure(result.issues, maxIssues);
  const validate = (input: unknown): ValidationResult<T> | Promise<ValidationResult<T>> => {
    const result = props.validate(input);
    return result instanceof Promise ? result.then(answer) : answer(result);
  };
  return Object.assign(validate, { native: true, fallbackReasons: Object.freeze([]) as readonly string[] });
}

function failure(issues: ReadonlyArray<StandardSchemaV1.Issue>, maxIssues: number): ValidationResult<never> {
  // A library that reports a failure with no issue still failed: say so rather than answer 422 with nothing.
  if (issues.length === 0) return { ok: false, errors: [{ path: '', message: 'body is invalid' }] };
  const errors: ValidationIssue[] = [];
  const listed = Math.min(issues.length, maxIssues);
  for (let i = 0; i < listed; i++) errors.push({ path: dottedPath(issues[i].path), message: String(issues[i].message) });
  return issues.length > listed ? { ok: false, errors, omitted: issues.length - listed } : { ok: false, errors };
}

/**
 * `['items', 0, 'name']` (or valibot's `[{ key: 'items' }, ...]`) → `items.0.name`, as
 * class-validator issues are named; `''` for the value itself.
 *
 * @example
 * dottedPath(['address', { key: 'city' }]); // 'address.city'
 */
export function dottedPath(path: StandardSchemaV1.Issue['path']): string {
  if (path === undefined || path.length === 0) return '';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'object' && segment !== null ? (segment as StandardSchemaV1.PathSegment).key : segment;
    const text = typeof key === 'symbol' ? (key.description ?? '') : String(key);
    out = out === '' ? text : `${out}.${text}`;
  }
  return out;
}
