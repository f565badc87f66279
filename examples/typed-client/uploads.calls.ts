/**
 * A typed client of examples/uploads: every operation called through openapi-fetch, multipart
 * uploads included. generate.mjs types each file field as `Blob`, so the photo body below is
 * checked field by field; `formData` turns it into the multipart body. `./uploads.api` is
 * generated, see controllers.calls.ts.
 */
import createClient from 'openapi-fetch';
import type { paths } from './uploads.api';
import { Recorder } from './recorder';

/** The eight bytes every PNG starts with, and some filler. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3, 4]);

/** A typed multipart body as `FormData`: files stay files, arrays repeat the field, the rest is text. */
export function formData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      if (item instanceof Blob) form.append(name, item, item instanceof File ? item.name : name);
      else form.append(name, String(item));
    }
  }
  return form;
}

export async function callEveryOperation(baseUrl: string, recorder: Recorder): Promise<Record<string, unknown>> {
  const client = createClient<paths>({ baseUrl, fetch: recorder.fetch });
  const seen: Record<string, unknown> = {};
  const png = (name: string) => new File([PNG], name, { type: 'image/png' });

  // No request model documents this body (`consumes` only): its type is `unknown`, any FormData goes.
  const avatar = await recorder.call('POST /avatars', client.POST('/avatars', { body: formData({ avatar: png('me.png'), alt: 'Me' }) }));
  const avatarId = avatar.data?.id ?? '';
  const alt: string | null | undefined = avatar.data?.alt;
  seen.avatar = { size: avatar.data?.size, alt };
  const noAvatar = await recorder.call('POST /avatars', client.POST('/avatars', { body: formData({ picture: png('me.png') }) }));
  seen.noAvatarFields = noAvatar.error && 'errors' in noAvatar.error ? noAvatar.error.errors : noAvatar.error?.detail;

  const described = await recorder.call('GET /avatars/{id}', client.GET('/avatars/{id}', { params: { path: { id: avatarId } } }));
  seen.described = described.data?.originalName;
  const unknown = await recorder.call('GET /avatars/{id}', client.GET('/avatars/{id}', { params: { path: { id: '00000000-0000-4000-8000-000000000000' } } }));
  seen.unknownTitle = unknown.error?.title;

  const csv = (name: string, rows: number) => new File(['a,b\n'.repeat(rows)], name, { type: 'text/csv' });
  const imported = await recorder.call('POST /imports', client.POST('/imports', { body: formData({ first: csv('one.csv', 3), second: csv('two.csv', 1) }) }));
  const counts: Record<string, number> | undefined = imported.data?.counts;
  seen.counts = counts;

  // The raw body is read by the handler, not documented: the typed call sends none.
  const raw = await recorder.call('PUT /imports/raw', client.PUT('/imports/raw'));
  seen.rawRows = raw.data?.rows;

  const feedback = await recorder.call('POST /feedback', client.POST('/feedback', { body: { email: 'ada@example.com', kind: 'idea', message: 'Typed clients!' } }));
  seen.feedbackKind = feedback.data?.received.kind;
  // The same model from a form: the typed body, written as urlencoded fields.
  const form = await recorder.call(
    'POST /feedback',
    client.POST('/feedback', {
      body: { email: 'grace@example.com', kind: 'bug', message: 'A moth' },
      bodySerializer: (fields) => new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  );
  seen.formEmail = form.data?.received.email;
  const badEmail = await recorder.call('POST /feedback', client.POST('/feedback', { body: { email: 'not an email', kind: 'praise', message: 'Hi' } }));
  seen.badEmailFields = badEmail.error && 'errors' in badEmail.error ? badEmail.error.errors?.map((e) => e.path) : undefined;

  // The signature header is checked by the handler, not declared: unsigned, the webhook is a 401.
  const webhook = await recorder.call('POST /webhooks/payments', client.POST('/webhooks/payments'));
  seen.webhookStatus = webhook.error?.status;

  const photo = await recorder.call(
    'POST /photos',
    client.POST('/photos', { body: { title: 'Sunset', year: 2024, photo: png('sunset.png') }, bodySerializer: formData }),
  );
  seen.photo = photo.data && { title: photo.data.title, year: photo.data.year, size: photo.data.size };
  const tooOld = await recorder.call('POST /photos', client.POST('/photos', { body: { title: 'Daguerre', year: 1700, photo: png('old.png') }, bodySerializer: formData }));
  seen.tooOldFields = tooOld.error && 'errors' in tooOld.error ? tooOld.error.errors?.map((e) => e.path) : undefined;

  const gallery = await recorder.call('POST /photos/gallery', client.POST('/photos/gallery', { body: { photos: [png('a.png'), png('b.png')] }, bodySerializer: formData }));
  seen.gallery = gallery.data && { count: gallery.data.count, bytes: gallery.data.bytes };

  return seen;
}
