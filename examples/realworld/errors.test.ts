/**
 * An unexpected failure answers in RealWorld's error format too, saying nothing of its cause,
 * and is still reported to the app's logger.
 */
import { buildApp } from './app';

describe('RealWorld errors', () => {
  it('answers an unexpected failure as a 500 in {"errors":{"body":[...]}}, without its message, and reports it', async () => {
    const logged: unknown[][] = [];
    const app = buildApp({ database: {}, jwtSecret: 'test-secret-that-is-long-enough-for-hs256', logger: { error: (...args: unknown[]) => void logged.push(args) } });
    app.get('/boom', { security: [], excludeFromSchema: true }, async () => {
      throw new Error('connection to db.internal:5432 failed for user admin');
    });
    try {
      const res = await app.inject('/api/boom');
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ errors: { body: ['Internal Server Error'] } });
      expect(res.body).not.toMatch(/db\.internal|admin/);
      expect(JSON.stringify(logged.flat().map(String))).toContain('db.internal:5432');
    } finally {
      await app.close();
    }
  }, 60_000);
});
