import { HTTPException, TernApp, type Middleware } from '@tern/core';
import { listenOnFreePort, rawGet, statusOf } from '../../../test-support/raw-http';

/**
 * docs/security.md "Guarding paths": guard with `req.route`, never by comparing `req.url.path`,
 * which is the target as sent (`/%61dmin` routes to `/admin`).
 */
describe('guarding paths', () => {
  const byRoute: Middleware = async (req, res, next) => {
    if (req.route?.tags.includes('admin') && req.headers.get('x-admin') !== 'yes') throw new HTTPException(403);
    return next();
  };
  const byPathString: Middleware = async (req, res, next) => {
    if (req.url.path.startsWith('/admin') && req.headers.get('x-admin') !== 'yes') throw new HTTPException(403);
    return next();
  };

  function appGuardedBy(guard: Middleware): TernApp {
    const app = new TernApp();
    app.addMiddleware(guard);
    app.get('/admin', { tags: ['admin'] }, async () => ({ secret: true }));
    app.get('/public', async () => ({ open: true }));
    return app;
  }

  it.each(['/admin', '/%61dmin', '/%61%64%6d%69%6e'])('a guard on req.route refuses %s however it is encoded', async (target) => {
    const response = await appGuardedBy(byRoute).inject(target);
    expect(response.statusCode).toBe(403);
  });

  it('shows why comparing req.url.path is not a guard: an encoded path walks around it', async () => {
    const response = await appGuardedBy(byPathString).inject('/%61dmin');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ secret: true });
  });

  it('refuses a target carrying a #fragment (400), which the router would otherwise cut off', async () => {
    const app = appGuardedBy(byPathString);
    const port = await listenOnFreePort(app);
    try {
      expect(statusOf(await rawGet(port, '/admin#x'))).toBe(400);
      expect(statusOf(await rawGet(port, '/public'))).toBe(200);
    } finally {
      await app.close();
    }
  });
});
