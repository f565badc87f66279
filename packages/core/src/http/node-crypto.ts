import type * as Crypto from 'node:crypto';
import { onFirstUse } from './on-first-use';

/**
 * `node:crypto`, loaded on its first use. Tern needs it only for work a request or a feature
 * asks for (request ids, signed cookies, CSRF tokens, the docs script's digest); loading it with
 * Tern cost every start ~28 M instructions (~5 ms) that an app without those features never used.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const nodeCrypto = onFirstUse(() => require('node:crypto') as typeof Crypto);
