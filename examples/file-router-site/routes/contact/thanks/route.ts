// GET /contact/thanks — greets the sender with the message the form's POST flashed (`flashes` is in every template's context).
import { markAsRoute, render } from '@tern/file-router';

export const get = markAsRoute({ name: 'contact.thanks', excludeFromSchema: true }, render('thanks.html', async () => ({})));
