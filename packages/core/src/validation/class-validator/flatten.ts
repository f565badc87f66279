/**
 * class-validator's error tree as Tern's flat issues: the fallback's answer, and what a record's
 * model values report on that path.
 */
import type { ValidationError } from 'class-validator';
import type { ValidationIssue } from '../types';
import { recordIssuesOf } from './record';

/**
 * class-validator's error tree as dotted-path issues: constraints of a node, then its children.
 * At most `maxIssues` are listed; the others are counted.
 */
export function flattenErrors(errors: readonly ValidationError[], maxIssues: number): { errors: ValidationIssue[]; omitted: number } {
  const out: ValidationIssue[] = [];
  let omitted = 0;
  const walk = (nodes: readonly ValidationError[], prefix: string): void => {
    for (const error of nodes) {
      const path = prefix + error.property;
      // `@IsRecord` found its issues inside the record: they are listed, each at its own key.
      const inner = error.constraints?.isRecord !== undefined ? recordIssuesOf(error.value) : undefined;
      for (const [name, message] of Object.entries(error.constraints ?? {})) {
        const issues = name === 'isRecord' && inner !== undefined ? inner.map((issue) => ({ path: `${path}.${issue.path}`, message: issue.message })) : [{ path, message }];
        for (const issue of issues) {
          if (out.length < maxIssues) out.push(issue);
          else omitted++;
        }
      }
      if (error.children && error.children.length > 0) walk(error.children, `${path}.`);
    }
  };
  walk(errors, '');
  return { errors: out, omitted };
}

