/**
 * Per class, generates the two functions a request runs: `build` (step 1, transform.ts) and
 * `check` (step 2, execute.ts). The generated code names each declared property literally, so V8
 * sees monomorphic property access and call sites, which is what makes the native path several
 * times faster than walking the plan's data. Only property names (as JSON string literals) are
 * written into the source; every rule, message and class is passed in as a closure value.
 *
 * Without code generation (`--disallow-code-generation-from-strings`), the interpreted versions
 * in transform.ts / execute.ts run instead; they do the same thing.
 */
import { checkMerging, interpretCheck, passesEach, stripKey, validateNested } from './execute';
import { prefixOf, PRESENT, type BuildFn, type CheckFn, type ClassPlan } from './plan';
import { TOO_DEEP } from './signals';
import { assertPlain, buildArray, convertArray, copyOthers, interpretBuild, plain } from './transform';
import { withoutUnsentFields } from './unsent';

let codegen = true;
let generation = 0;

/**
 * Switches code generation off or back on for validators compiled afterwards: tests run both
 * engines. Not part of the public surface.
 */
export function useCodegen(enabled: boolean): void {
  codegen = enabled;
  generation++;
}

/** Gives `plan` its `build` and `check` functions (once per `useCodegen` setting). */
export function ensureCompiled(plan: ClassPlan): ClassPlan {
  if (plan.build !== undefined && plan.generation === generation) return plan;
  plan.generation = generation;
  // Assigned before generating so that classes referring to each other can be compiled.
  plan.build = interpretBuild(plan);
  plan.check = interpretCheck(plan);
  if (codegen) {
    try {
      plan.build = generateBuild(plan) ?? plan.build;
      plan.check = generateCheck(plan);
    } catch (error) {
      if (!(error instanceof EvalError)) throw error; // code generation disallowed: keep the interpreters
    }
  }
  // ES2022 class fields: a field the body did not send is not left as an own `undefined` (unsent.ts).
  plan.build = withoutUnsentFields(plan, plan.build);
  return plan;
}

const literal = (key: string) => JSON.stringify(key);

/** Collects closure values for generated code and hands out the names to use for them. */
class Scope {
  readonly names: string[] = [];
  readonly values: unknown[] = [];
  ref(value: unknown, hint = 'x'): string {
    const name = `${hint}${this.names.length}`;
    this.names.push(name);
    this.values.push(value);
    return name;
  }
  compile<F>(body: string): F {
    return new Function(...this.names, body)(...this.values) as F;
  }
}

/**
 * Keys a generated build reads by name. A key inherited by every plain object (`toString`…)
 * would read the inherited value when the input lacks it, so such keys take the general path.
 */
function fastKeys(plan: ClassPlan): string[] {
  const keys = new Set([...plan.known, ...plan.types.keys()]);
  return [...keys].filter((key) => !(key in Object.prototype) && key !== '__proto__' && !plan.readOnly.has(key));
}

/**
 * The build for `plan`, or `undefined` when the general one must run: naming keys changes the
 * order in which new properties appear, which only cannot matter when the constructor already
 * defines every named key (class fields, as TypeScript emits them for ES2022 and later).
 */
function generateBuild(plan: ClassPlan): BuildFn | undefined {
  const keys = fastKeys(plan);
  let probe: object;
  try {
    probe = new plan.cls();
  } catch {
    return undefined;
  }
  if (!keys.every((key) => Object.prototype.hasOwnProperty.call(probe, key))) return undefined;

  const scope = new Scope();
  const C = scope.ref(plan.cls, 'C');
  const lines = [
    `if (depth > maxDepth) throw ${scope.ref(TOO_DEEP, 'TOO_DEEP')};`,
    `${scope.ref(assertPlain, 'assertPlain')}(s);`,
    `const out = new ${C}();`,
    'let n = 0, v;',
  ];
  const plainRef = scope.ref(plain, 'plain');
  for (const key of keys) {
    const spec = plan.types.get(key);
    let value: string;
    if (spec === undefined) {
      value = `typeof v === 'object' && v !== null ? ${plainRef}(v, depth + 1, maxDepth) : v`;
    } else if (spec.kind === 'class') {
      const target = scope.ref(spec.plan, 'P');
      const arrays = scope.ref(buildArray, 'buildArray');
      // `.build` is read per call: the target may be this very class, compiled a moment later.
      value = `typeof v !== 'object' || v === null ? v : Array.isArray(v) ? ${arrays}(${target}, v, depth + 1, maxDepth) : ${target}.build(v, depth + 1, maxDepth)`;
    } else {
      const arrays = `${scope.ref(convertArray, 'convertArray')}(${literal(spec.kind)}, v, depth + 1, maxDepth)`;
      const one = {
        string: 'String(v)',
        number: 'Number(v)',
        boolean: 'Boolean(v)',
        date: `v instanceof Date ? new Date(v.valueOf()) : new Date(v)`,
      }[spec.kind];
      value = `Array.isArray(v) ? ${arrays} : v === null ? v : ${one}`;
    }
    const prop = `out[${literal(key)}]`;
    lines.push(
      `v = s[${literal(key)}];`,
      `if (v !== undefined) { n++; if (!(${prop} instanceof Function)) ${prop} = ${value}; }`,
    );
  }
  // Any other key (or a named key whose value was undefined) goes through the general rule.
  lines.push(
    'for (const k in s) n--;',
    `if (n !== 0) ${scope.ref(copyOthers, 'copyOthers')}(${scope.ref(plan, 'plan')}, ${scope.ref(new Set(keys), 'fast')}, s, out, depth, maxDepth);`,
    'return out;',
  );
  for (const key of keys) {
    const spec = plan.types.get(key);
    if (spec?.kind === 'class') ensureCompiled(spec.plan);
  }
  return scope.compile<BuildFn>(`return function build(s, depth, maxDepth) {\n${lines.join('\n')}\n};`);
}

function generateCheck(plan: ClassPlan): CheckFn {
  const scope = new Scope();
  const hasOwn = scope.ref(Object.prototype.hasOwnProperty, 'hasOwn');
  const strip = scope.ref(stripKey, 'stripKey');
  const prefix = `${scope.ref(prefixOf, 'prefixOf')}(base, key, index)`;
  const lines = [`if (depth > run.maxDepth) throw ${scope.ref(TOO_DEEP, 'TOO_DEEP')};`];

  // whitelist: one pass over the instance's keys; declared names are recognised by a switch.
  const known = [...plan.known];
  const isKnown =
    known.length === 0
      ? (body: string) => body
      : known.length <= 32
        ? (body: string) => `switch (k) { ${known.map((k) => `case ${literal(k)}: `).join('')}break; default: ${body} }`
        : (body: string) => `if (${scope.ref(Object.fromEntries(known.map((k) => [k, true])), 'known')}[k] !== true) { ${body} }`;
  lines.push(`if (run.whitelist) for (const k in o) { ${isKnown(`if (${hasOwn}.call(o, k)) ${strip}(o, k, base, key, index, run);`)} }`);
  // Nested values need this object's prefix as their base; objects without any skip the join.
  if (plan.properties.some((property) => property.nested)) lines.push(`const here = ${prefix};`);
  lines.push('let v;');

  for (const property of plan.properties) {
    const path = `${prefix} + ${literal(property.key)}`;
    const body: string[] = [];
    if (property.mergeByType) {
      body.push(`${scope.ref(checkMerging, 'checkMerging')}(${scope.ref(property, 'property')}, o, v, ${path}, run);`);
    } else {
      for (const check of property.checks) {
        const test = scope.ref(check.test, 'test');
        const passes = check.each ? `${scope.ref(passesEach, 'passesEach')}(${test}, v)` : `${test}(v)`;
        const guard = check.validateIf ? `${scope.ref(check.validateIf, 'validateIf')}(o, v) && ` : '';
        const message = scope.ref(check.message, 'message');
        body.push(`if (${guard}!${passes}) run.issues.push({ path: ${path}, message: ${message}(o, v) });`);
      }
    }
    if (property.nested) {
      if (property.nested.expected) ensureCompiled(property.nested.expected);
      const nested = scope.ref(validateNested, 'validateNested');
      body.push(`if (v !== undefined) ${nested}(${scope.ref(property.nested, 'rule')}, v, here, ${literal(property.key)}, depth + 1, run);`);
    }
    lines.push(`v = o[${literal(property.key)}];`);
    if (property.conditions.length === 0) {
      lines.push(...body);
      continue;
    }
    // class-validator evaluates every condition, then validates only if all held.
    const verdicts = property.conditions.map((condition) =>
      condition === PRESENT ? '(v !== null && v !== undefined)' : `${scope.ref(condition, 'condition')}(o, v)`,
    );
    const names = verdicts.map((_, i) => `c${i}`);
    lines.push(`{ const ${verdicts.map((verdict, i) => `${names[i]} = ${verdict}`).join(', ')};`);
    lines.push(`if (${names.join(' && ')}) {`, ...body, '} }');
  }
  return scope.compile<CheckFn>(`return function check(o, base, key, index, depth, run) {\n${lines.join('\n')}\n};`);
}
