/**
 * Issue 24 item 3: filtering fails closed. A route that declares a response model never sends a
 * success body that no declaration filtered, whether the handler picks an undeclared status or
 * middleware changes the status after `next()`.
 */
import { TernApp } from '@tern/core';

const row = { id: 1, email: 'ada@example.com', passwordHash: '$2b$10$secret' };
const USER = { id: Number, email: String };

describe('filtering on an undeclared status', () => {
  it('refuses res.json(entity, 201) on a route that declares only 200, without the entity', async () => {
    const app = new TernApp();
    app.post('/users', { responses: { 200: USER } }, async (_req, res) => res.json(row, 201));
    jest.spyOn(console, 'error').mockImplementation(() => {});
    const response = await app.inject({ method: 'POST', url: '/users' });
    expect(response.statusCode).toBe(500);
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('ada@example.com');
    jest.restoreAllMocks();
  });

  it('keeps the filtered body when middleware changes the status after next()', async () => {
    const app = new TernApp();
    app.addMiddleware(async (req, res, next) => {
      await next();
      return res.status(201);
    });
    app.get('/me', { responses: { 200: USER } }, async () => row);
    const response = await app.inject('/me');
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({ id: 1, email: 'ada@example.com' });
  });

  it('sends a status declared { description } only as written, and error statuses as before', async () => {
    const app = new TernApp();
    app.post('/raw', { responses: { 200: USER, 202: { description: 'Queued, echoed as sent' } } }, async (_req, res) => res.json({ queued: true, id: 9 }, 202));
    app.get('/gone', { responses: { 200: USER } }, async (_req, res) => res.json({ message: 'gone' }, 410));
    expect((await app.inject({ method: 'POST', url: '/raw' })).json()).toEqual({ queued: true, id: 9 });
    const gone = await app.inject('/gone');
    expect([gone.statusCode, gone.json()]).toEqual([410, { message: 'gone' }]);
  });
});
