/**
 * Failure messages, built only when a check fails. They come from the same sources class-validator
 * uses (the decorator's `message`, else the constraint's `defaultMessage`) and go through the same
 * token replacement, so the text is identical, custom messages and `$value` tokens included.
 */
import type { ValidationArguments } from 'class-validator';
import type { ConstraintMeta, ValidationMeta } from './metadata';

/** class-validator's `constraintToString`. */
function constraintToString(constraint: unknown): string {
  if (Array.isArray(constraint)) return constraint.join(', ');
  if (typeof constraint === 'symbol') return `${constraint.description}`;
  return `${constraint as string}`;
}

/**
 * class-validator's `ValidationUtils.replaceMessageSpecialTokens`, step for step: replacements are
 * passed as replacement strings (so `$&` in a value behaves as it does there), `$value` only for
 * primitive values.
 */
export function replaceTokens(message: unknown, args: ValidationArguments): string {
  // class-validator uses a message function's result unchecked, as a string; so does this copy.
  let text: string | undefined;
  if (message instanceof Function) text = message(args) as string;
  else if (typeof message === 'string') text = message;
  if (text && Array.isArray(args.constraints)) {
    args.constraints.forEach((constraint, index) => {
      text = text!.replace(new RegExp(`\\$constraint${index + 1}`, 'g'), constraintToString(constraint));
    });
  }
  const value = args.value;
  if (text && value !== undefined && value !== null && ['string', 'boolean', 'number'].includes(typeof value)) {
    text = text.replace(/\$value/g, String(value));
  }
  if (text) text = text.replace(/\$property/g, args.property);
  if (text) text = text.replace(/\$target/g, String(args.targetName));
  // undefined when there was no message, as class-validator returns it.
  return text as string;
}

/**
 * The message class-validator's `createValidationError` produces for `meta` failing on `value`,
 * where `object` is what it passes as the validated object (the instance, or the decorated class
 * for a nested value that is not an object).
 */
export function failureMessage(
  meta: ValidationMeta,
  constraint: ConstraintMeta | undefined,
  object: object,
  value: unknown,
): string {
  const args: ValidationArguments = {
    targetName: (object.constructor ? object.constructor.name : undefined) as string,
    property: meta.propertyName,
    object,
    value,
    constraints: meta.constraints,
  };
  let message: unknown = meta.message || '';
  if (!meta.message && constraint) {
    const instance = constraint.instance;
    if (instance.defaultMessage instanceof Function) message = instance.defaultMessage(args);
  }
  return replaceTokens(message, args);
}
