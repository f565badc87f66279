// GET /about — a static page.
import { markAsRoute, render } from '@tern/file-router';

export const get = markAsRoute({ name: 'about', excludeFromSchema: true }, render('about.html', async () => ({})));
