/**
 * Per class, generates the two functions a request runs: `build` (step 1, transform.ts) and
 * `check` (step 2, execute.ts). `engine.ts` decides when; other classes' functions are reached
 * through the `resolve` it passes in. The generated code names each declared property
 * literally, so V8 sees monomorphic property access and call sites, which is what makes the
 * native path several times faster than walking the plan's data. Only property names (as JSON string literals) are
 * written into the source; every rule, message and class is passed in as a closure value.
 *
 * Without code generation (`codegen: false`, or `--disallow-code-generation-from-strings`), the
 * interpreted versions in transform.ts / execute.ts run instead; they do the same thing.
 */
import { checkMerging, checkRecord, passesEach, stripKey, validateNested } from './execute';
import { prefixOf, PRESENT, type BuildFn, type CheckFn, type ClassPlan, type PropertyPlan, type Resolve } from './plan';
import { TOO_DEEP, TOO_MANY_KEYS } from './signals';
import { assertPlain, buildArray, buildRecord, convertArray, copyOthers, plain } from './transform';
import { unsentFieldCandidates } from './unsent';

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
 * The build for `plan` (unsent fields already removed, see unsent.ts), or `undefined` when the
 * general one must run: naming keys changes the order in which new properties appear, which only
 * cannot matter when the constructor already defines every named key (class fields, as
 * TypeScript emits them for ES2022 and later).
 */
export function generateBuild(plan: ClassPlan, resolve: Resolve): BuildFn | undefined {
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
    `if (depth > cx.maxDepth) throw ${scope.ref(TOO_DEEP, 'TOO_DEEP')};`,
    `${scope.ref(assertPlain, 'assertPlain')}(s);`,
    `const out = new ${C}();`,
    'let n = 0, v;',
  ];
  const plainRef = scope.ref(plain, 'plain');
  for (const key of keys) {
    const spec = plan.types.get(key);
    let value: string;
    if (spec === undefined) {
      value = `typeof v === 'object' && v !== null ? ${plainRef}(v, depth + 1, cx) : v`;
    } else if (spec.kind === 'record') {
      value = `${scope.ref(buildRecord, 'buildRecord')}(${scope.ref(spec, 'R')}, v, depth + 1, cx)`;
    } else if (spec.kind === 'class') {
      const target = scope.ref(spec.plan, 'P');
      // `.build` is read per call: the target may be this very class, compiled a moment later.
      const compiled = scope.ref(resolve(spec.plan), 'T');
      const arrays = scope.ref(buildArray, 'buildArray');
      value = `typeof v !== 'object' || v === null ? v : Array.isArray(v) ? ${arrays}(${target}, v, depth + 1, cx) : ${compiled}.build(v, depth + 1, cx)`;
    } else {
      const arrays = `${scope.ref(convertArray, 'convertArray')}(${literal(spec.kind)}, v, depth + 1, cx)`;
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
    'let keys = 0;',
    'for (const k in s) keys++;',
    `if (keys > cx.maxKeys) throw ${scope.ref(TOO_MANY_KEYS, 'TOO_MANY_KEYS')};`,
    `if (n !== keys) ${scope.ref(copyOthers, 'copyOthers')}(${scope.ref(plan, 'plan')}, ${scope.ref(new Set(keys), 'fast')}, s, out, depth, cx);`,
    // unsent.ts's rule, with each field named: a literal key is a monomorphic access, where the
    // general wrapper's `out[keys[i]]` is a megamorphic lookup per field and per object.
    ...unsentFieldCandidates(plan).map((key) => `if (out[${literal(key)}] === undefined) delete out[${literal(key)}];`),
    'return out;',
  );
  return scope.compile<BuildFn>(`return function build(s, depth, cx) {\n${lines.join('\n')}\n};`);
}

export function generateCheck(plan: ClassPlan, resolve: Resolve): CheckFn {
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
  if (plan.properties.some((property) => property.nested || property.record)) lines.push(`const here = ${prefix};`);
  // An array whose size rule failed is not walked (`cut`): its elements could add 500,000 issues.
  const cuts = (property: PropertyPlan) => property.nested !== undefined && property.checks.some((check) => check.bounds);
  lines.push(plan.properties.some(cuts) ? 'let v, cut;' : 'let v;');

  for (const property of plan.properties) {
    const path = `${prefix} + ${literal(property.key)}`;
    const cut = cuts(property);
    const body: string[] = cut ? ['cut = false;'] : [];
    if (property.mergeByType) {
      const merge = `${scope.ref(checkMerging, 'checkMerging')}(${scope.ref(property, 'property')}, o, v, ${path}, run)`;
      body.push(cut ? `cut = ${merge};` : `${merge};`);
    } else {
      for (const check of property.checks) {
        const test = scope.ref(check.test, 'test');
        const passes = check.each ? `${scope.ref(passesEach, 'passesEach')}(${test}, v)` : `${test}(v)`;
        const guard = check.validateIf ? `${scope.ref(check.validateIf, 'validateIf')}(o, v) && ` : '';
        const message = scope.ref(check.message, 'message');
        // Past `maxIssues` an issue is only counted: no path or message is built for it.
        const report = `if (run.issues.length < run.maxIssues) run.issues.push({ path: ${path}, message: ${message}(o, v) }); else run.omitted++;`;
        body.push(`if (${guard}!${passes}) { ${cut && check.bounds ? 'cut = true; ' : ''}${report} }`);
      }
    }
    if (property.nested) {
      if (property.nested.expected) resolve(property.nested.expected);
      const nested = scope.ref(validateNested, 'validateNested');
      body.push(`if (v !== undefined${cut ? ' && !cut' : ''}) ${nested}(${scope.ref(property.nested, 'rule')}, v, here, ${literal(property.key)}, depth + 1, run);`);
    }
    if (property.record) {
      if (property.record.plan) resolve(property.record.plan);
      body.push(`${scope.ref(checkRecord, 'checkRecord')}(${scope.ref(property.record, 'record')}, o, v, here, ${literal(property.key)}, depth + 1, run);`);
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
