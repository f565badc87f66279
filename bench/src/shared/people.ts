/**
 * Scenario 10 (issue 27): GET /people answers 50 entities through a response model.
 *
 * Each stored entity has `id` (int), `name`, `email`, `role`, `active`, `score` (a float),
 * `createdAt` (a Date), `address` (three fields, of which the model keeps `city` and `zip`),
 * `tags` (three strings), `bio` (quotes, a backslash and non-ASCII text, so every serializer has
 * to escape and encode), plus `passwordHash` and `internalNote`, which the model does not
 * declare at all (an ORM entity's columns no DTO mentions). Every server must send exactly
 * `expectedPeople()`: the declared fields, the Date as an ISO string.
 *
 * Unlike scenario 7's UserDto, nothing here is `@Exclude()`d: the two secrets are simply not in
 * the model, which is how a Tern user writes a response model. `@Expose()` on the kept fields
 * is what NestJS's ClassSerializerInterceptor needs with `excludeExtraneousValues`; Tern reads
 * it as one more declaration of the same field.
 */
import 'reflect-metadata';
import { Expose, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDate, IsEmail, IsIn, IsInt, IsNumber, IsObject, IsString, ValidateNested } from 'class-validator';

export const PEOPLE_PATH = '/people';
export const PEOPLE_COUNT = 50;

export class PersonAddressDto {
  @Expose() @IsString() city: string;
  @Expose() @IsString() zip: string;
}

export class PersonDto {
  @Expose() @IsInt() id: number;
  @Expose() @IsString() name: string;
  @Expose() @IsEmail() email: string;
  @Expose() @IsIn(['admin', 'editor', 'viewer']) role: string;
  @Expose() @IsBoolean() active: boolean;
  @Expose() @IsNumber() score: number;
  @Expose() @IsDate() @Type(() => Date) createdAt: Date;
  @Expose() @IsObject() @ValidateNested() @Type(() => PersonAddressDto) address: PersonAddressDto;
  @Expose() @IsArray() @IsString({ each: true }) tags: string[];
  @Expose() @IsString() bio: string;
}

/** What an ORM hands back: a class instance with every column, the undeclared ones included. */
export class PersonEntity {
  id: number;
  name: string;
  email: string;
  role: string;
  active: boolean;
  score: number;
  createdAt: Date;
  address: { street: string; city: string; zip: string };
  tags: string[];
  bio: string;
  passwordHash: string;
  internalNote: string;
}

const ROLES = ['admin', 'editor', 'viewer'] as const;

/** The 50 stored entities (built once per server, as a cache or a repository would hold them). */
export function makePeople(): PersonEntity[] {
  return Array.from({ length: PEOPLE_COUNT }, (_, i) =>
    Object.assign(new PersonEntity(), {
      id: i + 1,
      name: `Person Number ${i}`,
      email: `person${i}@example.com`,
      role: ROLES[i % ROLES.length]!,
      active: i % 4 !== 0,
      // Floats that need all 17 digits (0.1 steps) and some that do not.
      score: i % 2 === 0 ? i * 0.1 + 0.2 : i * 2.5,
      createdAt: new Date(Date.UTC(2023, i % 12, 1 + (i % 28), 8, i % 60, 15, 250)),
      address: { street: `${i} Rue de l'Église`, city: 'Zürich', zip: `${8000 + i}` },
      tags: ['member', i % 2 === 0 ? 'even' : 'odd', `cohort-${i % 5}`],
      bio: `Said "hello" to C:\\Users\\p${i}; café, naïve façade, Straße, 東京 and ✓ (${i}).`,
      passwordHash: '$2b$10$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWX0123456',
      internalNote: `flagged by support, ticket #${1000 + i}: do not show`,
    }),
  );
}

/** The entity as the model allows it out, written by hand (what node:http, Express and plain Fastify do). */
export function toPersonJson(person: PersonEntity) {
  return {
    id: person.id,
    name: person.name,
    email: person.email,
    role: person.role,
    active: person.active,
    score: person.score,
    createdAt: person.createdAt,
    address: { city: person.address.city, zip: person.address.zip },
    tags: person.tags,
    bio: person.bio,
  };
}

/** The parsed body every server must answer GET /people with. */
export function expectedPeople(): unknown {
  return JSON.parse(JSON.stringify(makePeople().map(toPersonJson)));
}

/** Fastify's response schema for GET /people: the same shape as PersonDto (fast-json-stringify). */
export const peopleResponseSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'name', 'email', 'role', 'active', 'score', 'createdAt', 'address', 'tags', 'bio'],
    properties: {
      id: { type: 'integer' },
      name: { type: 'string' },
      email: { type: 'string', format: 'email' },
      role: { type: 'string', enum: ['admin', 'editor', 'viewer'] },
      active: { type: 'boolean' },
      score: { type: 'number' },
      createdAt: { type: 'string', format: 'date-time' },
      address: {
        type: 'object',
        required: ['city', 'zip'],
        properties: { city: { type: 'string' }, zip: { type: 'string' } },
      },
      tags: { type: 'array', items: { type: 'string' } },
      bio: { type: 'string' },
    },
  },
} as const;
