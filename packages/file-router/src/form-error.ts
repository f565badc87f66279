import { HTTPException } from '@tern/core';

/**
 * A form error only the handler can find (a wrong password, a slug already taken): thrown from a
 * route with `formTemplate`, the form is shown again exactly as for a model's 422, with these
 * messages in `errors`, the values as sent and the page's `formContext`. Elsewhere it is a 422
 * problem (`TERN_VALIDATION_FAILED`) listing the same fields. `''` names the form as a whole.
 *
 * @example
 * export const post = markAsRoute({ requestModel: SignIn, consumes: [FORM], formTemplate: 'sign-in.html' }, async (req, res) => {
 *   const user = await users.check(req.body.email, req.body.password);
 *   if (!user) throw new FormError({ '': 'Wrong email or password.' });
 *   return res.redirect('/', 303);
 * });
 */
export class FormError extends HTTPException {
  constructor(errors: Readonly<Record<string, string | readonly string[]>>, detail = 'The form has errors.') {
    const list = Object.entries(errors).flatMap(([path, messages]) => (typeof messages === 'string' ? [messages] : [...messages]).map((message) => ({ path, message: String(message) })));
    super(422, detail, undefined, { code: 'TERN_VALIDATION_FAILED', errors: list });
    this.name = 'FormError';
  }
}
