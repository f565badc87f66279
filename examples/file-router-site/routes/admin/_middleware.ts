// Guards every page under /admin, including route files added to this folder later: a visitor
// who is not signed in gets 401 (browsers see templates/401.html, which links to the sign-in
// form; scripts get problem+json), an author without the `admin` role 403. The status stays
// honest and the address bar keeps the URL, where a redirect to /login would turn both into a 303.
import { HTTPException, type Middleware } from '@tern/core';

const adminsOnly: Middleware = async (req, res, next) => {
  // Roles come from the session the sign-in wrote (routes/login/route.ts), never from the request.
  if (req.session.get<string>('author') === undefined) throw new HTTPException(401, 'Sign in to see this page.');
  if (!req.session.get<string[]>('roles')?.includes('admin')) throw new HTTPException(403, 'This page is for admins only.');
  return next();
};

export const middleware = [adminsOnly];
