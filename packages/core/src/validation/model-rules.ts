/**
 * A request model without a single class-validator rule: `whitelist` strips every property, so
 * the handler would silently receive `{}`. Found once per model at startup.
 */
import { TernError } from '../errors';
import { validationMetadatas } from './class-validator/metadata';

/** How the app reacts to a model without rules. */
export interface ModelRulesPolicy {
  /** Fail startup (`TERN_EMPTY_MODEL`) instead of warning. */
  strict: boolean;
  /** Where the warning goes (the app's logger); undefined silences it. */
  warn: ((message: string) => void) | undefined;
}

/**
 * Returns a check to call with each request model at startup: it warns once per model (or
 * throws under `strict`) when the model has no class-validator rule, own or inherited.
 *
 * @example
 * const check = modelRulesCheck({ strict: false, warn: (m) => console.warn(m) });
 * check(CreateUserDto, 'POST /users'); // silent: CreateUserDto has rules
 */
export function modelRulesCheck(policy: ModelRulesPolicy): (model: Function, where: string) => void {
  const seen = new Set<Function>();
  return (model, where) => {
    if (seen.has(model)) return;
    seen.add(model);
    if (validationMetadatas(model).length > 0) return;
    const message =
      `${where}: the request model ${model.name || '(anonymous class)'} has no class-validator rules, so every property is stripped ` +
      'and the handler receives {}. Decorate its properties (@IsString(), @IsInt(), @IsOptional()…; @Allow() accepts a value unchecked). ' +
      'MakeConfig({ strictModels: true }) makes this a startup error.';
    if (policy.strict) throw new TernError('TERN_EMPTY_MODEL', message);
    policy.warn?.(`[tern] warning: ${message}`);
  };
}
