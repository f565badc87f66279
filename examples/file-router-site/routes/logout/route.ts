// POST /logout ends the session: its data leaves the store and the cookie is cleared.
import type { TernRequest, TernResponse } from '@tern/core';
import { markAsRoute } from '@tern/file-router';

export const post = markAsRoute({ name: 'logout', excludeFromSchema: true }, async (req: TernRequest, res: TernResponse) => {
  await req.session.destroy();
  return res.redirect('/', 303);
});
