/**
 * Groups: routes under a prefix with shared middleware (a function or a `[factory, args,
 * options]` entry), nested groups appended after construction, and an Express app mounted
 * under `/legacy` with the prefix stripped.
 */
import express from 'express';
import { Group, HTTPException, Routes, TernApp, type Middleware } from '@tern/core';
import { exampleOpenAPI } from '../shared/openapi';

/** A middleware factory used as a `[factory, args, options]` group entry. */
function requireHeader(args: { header: string }, options: { value: string }): Middleware {
  return async (req, res, next) => {
    if (req.headers.get(args.header) !== options.value) throw new HTTPException(403, `${args.header} must be ${options.value}`);
    return next();
  };
}

const audit: string[] = [];
const auditLog: Middleware = async (req, res, next) => {
  audit.push(`${req.method} ${req.url.path}`);
  return next();
};

export function buildApp(): { app: TernApp; audit: string[] } {
  const legacy = express();
  legacy.get('/status', (req, res) => {
    res.json({ legacy: true, path: req.path });
  });

  const admin = new Group({
    path: '/admin',
    middleware: [auditLog, [requireHeader, { header: 'x-role' }, { value: 'admin' }]],
    routes: [
      new Routes({
        path: '/stats',
        summary: 'Admin statistics',
        description: 'Counts for the admin dashboard; needs `X-Role: admin`.',
        tags: ['admin'],
        responses: { 200: { users: Number } },
        problems: { 403: 'X-Role is not admin' },
        handler: async () => ({ users: 2 }),
      }),
    ],
  });
  // Groups are live lists: nest more after construction, up to app.ready().
  admin.routes.push(
    new Group({
      path: '/reports',
      routes: [
        new Routes({
          path: '/daily',
          summary: 'Daily report',
          description: "Today's report; needs `X-Role: admin`.",
          tags: ['admin'],
          responses: { 200: { report: String } },
          problems: { 403: 'X-Role is not admin' },
          handler: async () => ({ report: 'daily' }),
        }),
      ],
    }),
  );

  const app = new TernApp({
    openapi: exampleOpenAPI({
      title: 'Admin (groups)',
      description: 'Admin routes grouped under one prefix with shared middleware, beside a mounted Express app (not documented).',
      tags: [{ name: 'admin', description: 'Routes for administrators (`X-Role: admin`).' }],
    }),
  });
  app.addRoute(admin);
  app.addRoute(new Group({ path: '/legacy', app: legacy }));
  return { app, audit };
}
