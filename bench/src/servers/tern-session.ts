/**
 * Scenario 12: the plain Tern server with `session()` on the default memoryStore(), and GET /
 * answering from the session its fixed cookie names (one signature check, one store read, no
 * write: the session does not change).
 */
import { memoryStore, session } from '@tern/core';
import { SESSION_ID, SESSION_RECORD, SESSION_SECRET } from '../shared/store-bench';
import { startTern } from './tern-plain';
import type { StartServer } from './types';

export const start: StartServer = async (options) => {
  const store = memoryStore();
  await store.set(`sess:${SESSION_ID}`, SESSION_RECORD);
  return startTern(
    options,
    { store },
    {
      middleware: [session({ secret: SESSION_SECRET, maxAge: 365 * 86_400_000 })],
      hello: async (req) => ({ hello: req.session.get<string>('greeting') }),
    },
  );
};
