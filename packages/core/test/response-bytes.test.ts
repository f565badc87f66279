/**
 * A declared response model's compiled serializer hands `res.json()` the filtered JSON as UTF-8
 * bytes, sent as they are. What a client receives must be exactly what `JSON.stringify` writes
 * for the filtered value, escapes and all, and each answer must own its bytes (the serializer
 * writes into one scratch buffer shared by every request).
 */
import { Exclude, Expose, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDate, IsInt, IsNumber, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { TernApp, type Middleware } from '@tern/core';

class PlaceDto {
  @IsString() city: string;
  @IsString() zip: string;
}

class PersonDto {
  @IsInt() id: number;
  @IsString() name: string;
  @IsBoolean() active: boolean;
  @IsNumber() score: number;
  @IsDate() createdAt: Date;
  @IsObject() @ValidateNested() @Type(() => PlaceDto) address: PlaceDto;
  @IsArray() @IsString({ each: true }) tags: string[];
  @Expose({ name: 'about_me' }) @IsString() bio: string;
  @Exclude() @IsString() passwordHash: string;
  @IsOptional() @IsString() nickname?: string | null;
}

/** Strings a hand-written escaper gets wrong: quotes, backslash, control characters, separators, lone and paired surrogates. */
const NASTY = ['say "hi"', 'back\\slash', 'tab\there\nnew line\r', '\u0000\u0001\u001f\u007f', '\u2028\u2029', '\ud800 alone', 'alone \udfff', '\ud83d\ude00 paired', 'naïve café — 日本', ''];

function person(i: number, bio: string) {
  return {
    id: i,
    name: `Person ${i}`,
    active: i % 2 === 0,
    score: i * 1.25 + 0.1,
    createdAt: new Date(Date.UTC(2024, i % 12, 1 + i, 12, 30, 15, 250)),
    address: { street: 'hidden street', city: 'Zürich', zip: `80${i}` },
    tags: ['a"b', 'c\\d', `tag-${i}`],
    bio,
    passwordHash: '$2b$10$secret',
    internalNote: 'never sent',
    nickname: i % 3 === 0 ? null : undefined,
  };
}

/** What the model lets out, built by hand: the expected body is `JSON.stringify` of it. */
function expected(p: ReturnType<typeof person>) {
  return {
    id: p.id,
    name: p.name,
    active: p.active,
    score: p.score,
    createdAt: p.createdAt,
    address: { city: p.address.city, zip: p.address.zip },
    tags: p.tags,
    about_me: p.bio,
    ...(p.nickname === null ? { nickname: null } : {}),
  };
}

describe('declared response models sent as bytes', () => {
  it('sends exactly what JSON.stringify writes for the filtered value: escapes, surrogates, Dates, nested models, renamed, hidden and undefined fields', async () => {
    const app = new TernApp({ logger: false });
    const people = NASTY.map((bio, i) => person(i, bio));
    app.get('/people', { responses: { 200: [PersonDto] } }, async () => people);
    app.get('/people/{i:int}', { responses: { 200: PersonDto } }, async (_req, _res, { i }) => people[i]);

    const list = await app.inject({ method: 'GET', url: '/people' });
    const text = JSON.stringify(people.map(expected));
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(list.rawPayload.equals(Buffer.from(text))).toBe(true);
    expect(list.headers['content-length']).toBe(String(Buffer.byteLength(text)));
    expect(list.body).not.toContain('passwordHash');
    expect(list.body).not.toContain('internalNote');
    expect(list.body).not.toContain('hidden street');

    for (const [i, p] of people.entries()) {
      const one = await app.inject({ method: 'GET', url: `/people/${i}` });
      expect(one.body).toBe(JSON.stringify(expected(p)));
    }
  });

  it('answers HEAD with the byte length of the filtered body and no body', async () => {
    const app = new TernApp({ logger: false });
    const p = person(1, 'naïve "café"');
    app.get('/me', { responses: { 200: PersonDto } }, async () => p);
    const head = await app.inject({ method: 'HEAD', url: '/me' });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(JSON.stringify(expected(p)))));
    expect(head.body).toBe('');
  });

  it('gives every answer its own bytes: a body held by middleware is not overwritten by the next answer', async () => {
    const app = new TernApp({ logger: false });
    const held: Array<string | Buffer | null> = [];
    const hold: Middleware = async (_req, _res, next) => {
      const response = await next();
      held.push(response.body);
      return response;
    };
    app.get('/people/{i:int}', { responses: { 200: PersonDto }, middleware: [hold] }, async (_req, _res, { i }) => person(i, NASTY[i] ?? 'x'));
    await Promise.all([0, 1, 2, 3].map((i) => app.inject({ method: 'GET', url: `/people/${i}` })));
    const bodies = held.map((body) => String(body)).sort();
    const wanted = [0, 1, 2, 3].map((i) => JSON.stringify(expected(person(i, NASTY[i])))).sort();
    expect(bodies).toEqual(wanted);
  });

  it('writes null for a value the model cannot describe and keeps null fields, as JSON.stringify does', async () => {
    const app = new TernApp({ logger: false });
    app.get('/nothing', { responses: { 200: PersonDto } }, async (_req, res) => res.json(null));
    app.get('/list-with-holes', { responses: { 200: [PersonDto] } }, async () => [person(3, 'x'), null, undefined]);
    expect((await app.inject({ method: 'GET', url: '/nothing' })).body).toBe('null');
    const holes = await app.inject({ method: 'GET', url: '/list-with-holes' });
    expect(holes.body).toBe(JSON.stringify([expected(person(3, 'x')), null, null]));
  });

  it('still fails closed: a status no declaration covers is a 500 with none of the entity in it', async () => {
    const app = new TernApp({ logger: false });
    app.get('/me', { responses: { 200: PersonDto } }, async (_req, res) => res.json(person(1, 'x'), 201));
    const res = await app.inject({ method: 'GET', url: '/me' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ code: 'TERN_UNDECLARED_RESPONSE_STATUS' });
    expect(res.body).not.toContain('Person');
  });
});
