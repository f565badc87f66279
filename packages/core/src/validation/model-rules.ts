/**
 * A request model from which the app's `ModelCompiler` accepts no property: the handler would
 * silently receive `{}`. Found once per model at startup, by asking the compiler that owns the
 * model (`describe()`), so another validation library's models are judged by their own rules.
 */
import { TernError } from '../errors';
import type { ModelClass, ModelCompiler } from './model-compiler';

/** How the app reacts to a model without rules. */
export interface ModelRulesPolicy {
  /** The app's compiler: it says which properties a request may carry. */
  compiler: ModelCompiler;
  /** Fail startup (`TERN_EMPTY_MODEL`) instead of warning. */
  strict: boolean;
  /** Where the warning goes (the app's logger); undefined silences it. */
  warn: ((message: string) => void) | undefined;
}

/**
 * Returns a check to call with each request model at startup: it warns once per model (or
 * throws under `strict`) when the compiler describes no property a request may carry.
 *
 * @example
 * const check = modelRulesCheck({ compiler: defaultModelCompiler, strict: false, warn: (m) => console.warn(m) });
 * check(CreateUserDto, 'POST /users'); // silent: CreateUserDto has rules
 */
export function modelRulesCheck(policy: ModelRulesPolicy): (model: Function, where: string) => void {
  const seen = new Set<Function>();
  return (model, where) => {
    if (seen.has(model)) return;
    seen.add(model);
    if (policy.compiler.describe(model as ModelClass).properties.some((property) => property.hiddenInInput !== true)) return;
    const message =
      `${where}: the request model ${model.name || '(anonymous class)'} has no property its model compiler accepts (for class-validator: no rule), ` +
      'so every property is stripped and the handler receives {}. Decorate its properties (@IsString(), @IsInt(), @IsOptional()…; ' +
      '@Allow() accepts a value unchecked). MakeConfig({ strictModels: true }) makes this a startup error.';
    if (policy.strict) throw new TernError('TERN_EMPTY_MODEL', message);
    policy.warn?.(`[tern] warning: ${message}`);
  };
}
