/**
 * Scenario 7: GET /users answers 50 users through a response model. Each stored user has 12
 * fields: one nested object (address), one array of strings (tags), one Date (createdAt), and
 * two fields the model leaves out: `passwordHash` (`@Exclude()`d) and `resetToken` (undeclared,
 * as an ORM entity carries columns no DTO mentions). Every server must send exactly
 * `expectedUsers()`: the ten declared fields, the Date as an ISO string.
 *
 * The DTO carries class-validator rules (what Tern's `responses` and OpenAPI read) and
 * `@Expose()` on every kept field (what NestJS's ClassSerializerInterceptor needs with
 * `excludeExtraneousValues` to drop `resetToken`).
 */
import 'reflect-metadata';
import { Exclude, Expose, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDate, IsEmail, IsIn, IsInt, IsNumber, IsObject, IsString, ValidateNested } from 'class-validator';

export const USERS_PATH = '/users';
export const USER_COUNT = 50;

export class AddressDto {
  @Expose() @IsString() street: string;
  @Expose() @IsString() city: string;
  @Expose() @IsString() zip: string;
  @Expose() @IsString() country: string;
}

export class UserDto {
  @Expose() @IsInt() id: number;
  @Expose() @IsEmail() email: string;
  @Expose() @IsString() name: string;
  @Expose() @IsInt() age: number;
  @Expose() @IsBoolean() active: boolean;
  @Expose() @IsIn(['admin', 'user']) role: string;
  @Expose() @IsDate() @Type(() => Date) createdAt: Date;
  @Expose() @IsObject() @ValidateNested() @Type(() => AddressDto) address: AddressDto;
  @Expose() @IsArray() @IsString({ each: true }) tags: string[];
  @Expose() @IsNumber() score: number;
  @Exclude() @IsString() passwordHash: string;
}

/** What an ORM hands back: a class instance with every column, secrets included. */
export class UserEntity {
  id: number;
  email: string;
  name: string;
  age: number;
  active: boolean;
  role: string;
  createdAt: Date;
  address: { street: string; city: string; zip: string; country: string };
  tags: string[];
  score: number;
  passwordHash: string;
  resetToken: string;
}

/** The 50 stored users (built once per server, as a cache or a repository would hold them). */
export function makeUsers(): UserEntity[] {
  return Array.from({ length: USER_COUNT }, (_, i) =>
    Object.assign(new UserEntity(), {
      id: i + 1,
      email: `user${i}@example.com`,
      name: `User Number ${i}`,
      age: 20 + (i % 50),
      active: i % 3 !== 0,
      role: i % 10 === 0 ? 'admin' : 'user',
      createdAt: new Date(Date.UTC(2024, i % 12, 1 + (i % 28), 12, 30)),
      address: { street: `${i} Main Street`, city: 'Springfield', zip: `${10000 + i}`, country: 'US' },
      tags: ['alpha', 'beta', `tag-${i}`],
      score: i * 1.5,
      passwordHash: '$2b$10$abcdefghijklmnopqrstuvABCDEFGHIJKLMNOPQRSTUVWX0123456',
      resetToken: `reset-${i}-0123456789abcdef`,
    }),
  );
}

/** The user as the model allows it out, written by hand (Express and node:http map with it). */
export function toUserJson(user: UserEntity) {
  const { address } = user;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    age: user.age,
    active: user.active,
    role: user.role,
    createdAt: user.createdAt,
    address: { street: address.street, city: address.city, zip: address.zip, country: address.country },
    tags: user.tags,
    score: user.score,
  };
}

/** The parsed body every server must answer GET /users with. */
export function expectedUsers(): unknown {
  return JSON.parse(JSON.stringify(makeUsers().map(toUserJson)));
}

/** Fastify's response schema for GET /users (compiled by fast-json-stringify at startup). */
export const usersResponseSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['id', 'email', 'name', 'age', 'active', 'role', 'createdAt', 'address', 'tags', 'score'],
    properties: {
      id: { type: 'integer' },
      email: { type: 'string' },
      name: { type: 'string' },
      age: { type: 'integer' },
      active: { type: 'boolean' },
      role: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
      address: {
        type: 'object',
        required: ['street', 'city', 'zip', 'country'],
        properties: {
          street: { type: 'string' },
          city: { type: 'string' },
          zip: { type: 'string' },
          country: { type: 'string' },
        },
      },
      tags: { type: 'array', items: { type: 'string' } },
      score: { type: 'number' },
    },
  },
} as const;
