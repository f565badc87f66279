/**
 * A typed client of examples/responses: every operation called through openapi-fetch. The
 * generated types carry the wire names (`display_name`) and leave out what the filter keeps on
 * the server (`passwordHash`), as the answers do. `./responses.api` is generated, see
 * controllers.calls.ts.
 */
import createClient from 'openapi-fetch';
import type { paths } from './responses.api';
import { Recorder } from './recorder';

export async function callEveryOperation(baseUrl: string, recorder: Recorder): Promise<Record<string, unknown>> {
  const client = createClient<paths>({ baseUrl, fetch: recorder.fetch });
  const seen: Record<string, unknown> = {};

  const me = await recorder.call('GET /auth/me', client.GET('/auth/me'));
  seen.me = me.data && { name: me.data.display_name, team: me.data.team.name, keys: Object.keys(me.data) };

  const rows = await recorder.call('GET /admin/export', client.GET('/admin/export'));
  const tokens: Array<string | null> = (rows.data ?? []).map((row) => row.resetToken);
  seen.exportTokens = tokens;
  seen.exportBudgets = (rows.data ?? []).map((row) => row.team.budget);

  const users = await recorder.call('GET /users', client.GET('/users'));
  seen.userNames = (users.data ?? []).map((user) => user.display_name);

  const user = await recorder.call('GET /users/{id}', client.GET('/users/{id}', { params: { path: { id: 2 } } }));
  seen.user = user.data && { id: user.data.id, name: user.data.display_name, keys: Object.keys(user.data) };
  const missing = await recorder.call('GET /users/{id}', client.GET('/users/{id}', { params: { path: { id: 3 } } }));
  seen.missingDetail = missing.error?.detail;
  // A number the type allows and the path converter refuses (ids are 0 or more): a 422.
  const negative = await recorder.call('GET /users/{id}', client.GET('/users/{id}', { params: { path: { id: -1 } } }));
  seen.negativeFields = negative.error && 'errors' in negative.error ? negative.error.errors?.map((e) => e.path) : undefined;

  return seen;
}
