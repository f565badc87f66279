// GET /contact/thanks — greets the sender with the message the form's POST flashed.
import { markAsRoute, render } from '@tern/file-router';

export const get = markAsRoute({ name: 'contact.thanks', excludeFromSchema: true }, render('thanks.html', async (req) => ({ flashes: req.flashes })));
