/**
 * The one owner of `ensureCompiled`: which functions a class's plan runs as, for one compiler.
 * Plans (what the decorators say) are shared by every compiler; the functions made from them are
 * per engine, so a compiler without code generation and one with it can live side by side (the
 * equivalence tests run both). Imports go one way: the engine uses the generators and the
 * interpreters, and they reach other classes only through the `resolve` it hands them.
 */
import { generateBuild, generateCheck } from './codegen';
import { interpretCheck } from './execute';
import type { BuildFn, ClassPlan, CompiledPlan, Resolve } from './plan';
import { interpretBuild } from './transform';
import { withoutUnsentFields } from './unsent';

export class Engine {
  private readonly compiled = new WeakMap<ClassPlan, CompiledPlan>();

  /** @param codegen generate per-class functions (`false`: run the interpreters, as without `eval`). */
  constructor(readonly codegen: boolean) {}

  /**
   * `plan`'s functions for this engine, made on first use. Every class a model reaches is
   * compiled when the model is, so a request only meets classes compiled already (or, rarely, a
   * class only seen at runtime, compiled then).
   */
  readonly ensureCompiled: Resolve = (plan) => {
    let slot = this.compiled.get(plan);
    if (slot !== undefined) return slot;
    // Stored before generating, so that classes referring to each other find each other's slot.
    slot = { build: interpretBuild(plan), check: interpretCheck(plan) };
    this.compiled.set(plan, slot);
    let generated: BuildFn | undefined;
    if (this.codegen) {
      try {
        generated = generateBuild(plan, this.ensureCompiled);
        slot.check = generateCheck(plan, this.ensureCompiled);
      } catch (error) {
        if (!(error instanceof EvalError)) throw error; // code generation disallowed: keep the interpreters
      }
    }
    // ES2022 class fields: a field the body did not send is not left as an own `undefined`
    // (unsent.ts); a generated build removes them itself.
    slot.build = generated ?? withoutUnsentFields(plan, slot.build);
    return slot;
  };
}
