/**
 * Scenario 4's three async middleware layers, Tern style: `async (req, res, next) => Response`.
 * Layer 1 and 3 set a response header, layer 2 sets `req.user`.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Middleware } from '@tern/core';
import { MW_USER } from '../shared/payload';

export const layer1: Middleware = async (_req, res, next) => {
  res.setHeader('x-mw-1', '1');
  return next();
};

export const layer2: Middleware = async (req, _res, next) => {
  req.user = MW_USER;
  return next();
};

export const layer3: Middleware = async (_req, res, next) => {
  res.setHeader('x-mw-3', '3');
  return next();
};

/**
 * The same three layers written as Connect middleware, `(req, res, next)` on Node's req/res: what
 * Express users bring. Tern runs them through `fromConnect`; Fastify through @fastify/middie.
 */
type ConnectLayer = (req: IncomingMessage & { user?: unknown }, res: ServerResponse, next: () => void) => void;

export const connectLayer1: ConnectLayer = (_req, res, next) => {
  res.setHeader('x-mw-1', '1');
  next();
};

export const connectLayer2: ConnectLayer = (req, _res, next) => {
  req.user = MW_USER;
  next();
};

export const connectLayer3: ConnectLayer = (_req, res, next) => {
  res.setHeader('x-mw-3', '3');
  next();
};
