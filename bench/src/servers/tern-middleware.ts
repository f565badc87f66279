/**
 * Scenario 4's three async middleware layers, Tern style: `async (req, res, next) => Response`.
 * Layer 1 and 3 set a response header, layer 2 sets `req.user`.
 */
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
