/**
 * A typed client of examples/controllers: every operation of its document called through
 * openapi-fetch, each answer read through the generated types. `./controllers.api` is generated
 * (`node examples/typed-client/generate.mjs http://127.0.0.1:3000/openapi.json
 * examples/typed-client/controllers.api.ts`) and never committed; typed-client.test.ts generates
 * it from the app, compiles this file against it with `tsc --strict`, and runs it.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './controllers.api';
import { Recorder } from './recorder';

type Problem = components['schemas']['Problem'];
type ValidationProblem = components['schemas']['ValidationProblem'];

/** The fields a validation problem names; a plain problem names none. */
function invalidFields(error: Problem | ValidationProblem | undefined): string[] {
  return error && 'errors' in error ? (error.errors ?? []).map((e) => e.path) : [];
}

export async function callEveryOperation(baseUrl: string, recorder: Recorder): Promise<Record<string, unknown>> {
  const ada = createClient<paths>({ baseUrl, fetch: recorder.fetch, headers: { authorization: 'Bearer ada-token' } });
  const anonymous = createClient<paths>({ baseUrl, fetch: recorder.fetch });
  const seen: Record<string, unknown> = {};

  const health = await recorder.call('GET /health', anonymous.GET('/health'));
  seen.health = health.data?.status;

  const users = await recorder.call('GET /api/v1/users', anonymous.GET('/api/v1/users'));
  seen.userNames = (users.data ?? []).map((user) => user.name);

  const created = await recorder.call('POST /api/v1/users', ada.POST('/api/v1/users', { body: { name: 'Edsger Dijkstra', email: 'edsger@example.com' } }));
  const newUserId: number | undefined = created.data?.id;
  seen.createdUser = newUserId;
  // The same email again: a 409, as a problem.
  const taken = await recorder.call('POST /api/v1/users', ada.POST('/api/v1/users', { body: { name: 'Edsger again', email: 'edsger@example.com' } }));
  seen.takenDetail = taken.error?.detail;
  // Without a token: a 401 problem.
  const unsigned = await recorder.call('POST /api/v1/users', anonymous.POST('/api/v1/users', { body: { name: 'Nobody', email: 'nobody@example.com' } }));
  seen.unsignedStatus = unsigned.error?.status;

  const user = await recorder.call('GET /api/v1/users/{id}', anonymous.GET('/api/v1/users/{id}', { params: { path: { id: 1 } } }));
  seen.user = user.data?.name;
  const noUser = await recorder.call('GET /api/v1/users/{id}', anonymous.GET('/api/v1/users/{id}', { params: { path: { id: 999 } } }));
  seen.noUserTitle = noUser.error?.title;

  const posts = await recorder.call('GET /api/v1/posts', anonymous.GET('/api/v1/posts', { params: { query: { authorId: 2, tag: 'computing' } } }));
  seen.postTitles = (posts.data ?? []).map((post) => post.title);

  const post = await recorder.call('POST /api/v1/posts', ada.POST('/api/v1/posts', { body: { title: 'On typed clients', body: 'Generated from the document.', tags: ['types'] } }));
  const postId = post.data?.id ?? 0;
  const createdAt: string | undefined = post.data?.createdAt;
  seen.postCreatedAt = createdAt;
  // Type-correct, value-wrong: an empty title is a 422 naming the field.
  const untitled = await recorder.call('POST /api/v1/posts', ada.POST('/api/v1/posts', { body: { title: '', body: 'No title' } }));
  seen.untitledFields = invalidFields(untitled.error);

  const read = await recorder.call('GET /api/v1/posts/{id}', anonymous.GET('/api/v1/posts/{id}', { params: { path: { id: postId } } }));
  seen.readTags = read.data?.tags;
  const noPost = await recorder.call('GET /api/v1/posts/{id}', anonymous.GET('/api/v1/posts/{id}', { params: { path: { id: 9999 } } }));
  seen.noPostStatus = noPost.error?.status;

  const edited = await recorder.call('PATCH /api/v1/posts/{id}', ada.PATCH('/api/v1/posts/{id}', { params: { path: { id: postId } }, body: { title: 'On typed clients, again' } }));
  seen.editedTitle = edited.data?.title;
  // Post 2 is Grace's: a 403.
  const notMine = await recorder.call('PATCH /api/v1/posts/{id}', ada.PATCH('/api/v1/posts/{id}', { params: { path: { id: 2 } }, body: { body: 'Mine now' } }));
  seen.notMineDetail = notMine.error?.detail;

  const deleted = await recorder.call('DELETE /api/v1/posts/{id}', ada.DELETE('/api/v1/posts/{id}', { params: { path: { id: postId } } }));
  seen.deletedStatus = deleted.response.status;
  const deletedTwice = await recorder.call('DELETE /api/v1/posts/{id}', ada.DELETE('/api/v1/posts/{id}', { params: { path: { id: postId } } }));
  seen.deletedTwiceTitle = deletedTwice.error?.title;

  const page = await recorder.call('GET /api/v2/users', anonymous.GET('/api/v2/users', { params: { query: { page: 1, limit: 1, search: 'a' } } }));
  seen.pageTotal = page.data?.total;
  seen.pageEmails = page.data?.items.map((item) => item.email);
  // `limit` is at most 100: a 422 naming `limit`.
  const tooMany = await recorder.call('GET /api/v2/users', anonymous.GET('/api/v2/users', { params: { query: { limit: 1000 } } }));
  seen.tooManyFields = invalidFields(tooMany.error);

  const me = await recorder.call('GET /api/v2/users/me', ada.GET('/api/v2/users/me'));
  seen.mePostCount = me.data?.postCount;
  const nobody = await recorder.call('GET /api/v2/users/me', anonymous.GET('/api/v2/users/me'));
  seen.nobodyStatus = nobody.error?.status;

  const userV2 = await recorder.call('GET /api/v2/users/{id}', anonymous.GET('/api/v2/users/{id}', { params: { path: { id: 2 } } }));
  seen.userV2Email = userV2.data?.email;
  const noUserV2 = await recorder.call('GET /api/v2/users/{id}', anonymous.GET('/api/v2/users/{id}', { params: { path: { id: 404 } } }));
  seen.noUserV2Instance = noUserV2.error?.instance;

  const postPage = await recorder.call('GET /api/v2/posts', anonymous.GET('/api/v2/posts', { params: { query: { page: 1, limit: 2, tag: 'computing' } } }));
  seen.postPageAuthors = postPage.data?.items.map((item) => item.authorId);

  return seen;
}
