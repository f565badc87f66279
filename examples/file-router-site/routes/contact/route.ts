// GET /contact shows the form; POST /contact validates it against ContactForm. A rejected form is
// shown again by `formTemplate` (status 422, errors per field, the values typed); an accepted one
// flashes a thank-you and redirects, so reloading the next page does not send it twice.
import type { TernRequest, TernResponse } from '@tern/core';
import { markAsRoute, render } from '@tern/file-router';
import { receiveMessage } from '../../messages';
import { ContactForm } from '../../models';

export const get = markAsRoute({ name: 'contact', excludeFromSchema: true }, render('contact.html', async () => ({ values: {}, errors: {} })));

export const post = markAsRoute(
  {
    name: 'contact.send',
    excludeFromSchema: true,
    requestModel: ContactForm,
    consumes: ['application/x-www-form-urlencoded'],
    formTemplate: 'contact.html',
  },
  async (req: TernRequest, res: TernResponse) => {
    const { name, email, message } = req.body as ContactForm;
    receiveMessage({ name, email, message });
    res.flash('success', `Thanks, ${name}! We will answer at ${email}.`);
    return res.redirect('/contact/thanks', 303);
  },
);
