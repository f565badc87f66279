/**
 * Micro-benchmark of response serialization (not a test, not part of `npm run bench`):
 * 50 users of 12 fields (a nested address, a list of tags, a Date, and two fields the model
 * leaves out: one `@Exclude()`d, one undeclared), written by
 *
 *   - the compiled serializer (generated code, then the closure fallback),
 *   - filter-then-JSON.stringify (`JSON.stringify(serializer.filter(users))`),
 *   - JSON.stringify of the whole unfiltered entities (what Tern sent before).
 *
 * It runs from the TypeScript sources (the serializer is not exported from @tern/core yet):
 *
 *   npm run bench:serializer -- [--rounds 15] [--ms 400]
 *
 * (ts-node with tsconfig.test.json, which emits the decorator metadata the models need).
 */
import 'reflect-metadata';
import { Exclude, Type } from 'class-transformer';
import { IsArray, IsBoolean, IsDate, IsEmail, IsIn, IsInt, IsNumber, IsString, ValidateNested } from 'class-validator';
import { parseArgs } from 'node:util';
import { compileResponseSerializer, type ResponseSerializer } from '../../../packages/core/src/serialization/compile';

class AddressDto {
  @IsString() street: string;
  @IsString() city: string;
  @IsString() zip: string;
  @IsString() country: string;
}

class UserDto {
  @IsInt() id: number;
  @IsEmail() email: string;
  @IsString() name: string;
  @IsInt() age: number;
  @IsBoolean() active: boolean;
  @IsIn(['admin', 'user']) role: string;
  @IsDate() createdAt: Date;
  @ValidateNested() @Type(() => AddressDto) address: AddressDto;
  @IsArray() @IsString({ each: true }) tags: string[];
  @IsNumber() score: number;
  @Exclude() @IsString() passwordHash: string;
}

/** What an ORM hands back: a class instance with every column, `resetToken` included. */
class UserEntity {
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

function makeUsers(asEntities: boolean): object[] {
  return Array.from({ length: 50 }, (_, i) => {
    const user = asEntities ? new UserEntity() : ({} as UserEntity);
    Object.assign(user, {
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
    });
    return user;
  });
}

/**
 * Median nanoseconds per call of each case. Cases are interleaved within every round, so a
 * machine whose load changes during the run slows all of them alike, and time is this
 * process's CPU time, not wall time, so time spent waiting for a busy CPU is not counted.
 */
function measure(cases: Array<() => unknown>, rounds: number, ms: number): number[] {
  let sink = 0;
  const perRound = cases.map((run) => {
    const start = process.hrtime.bigint();
    let calls = 0;
    for (; process.hrtime.bigint() - start < 50_000_000n; calls++) sink ^= String(run()).length;
    return Math.max(10, Math.round((calls * ms) / 50 / cases.length));
  });
  const samples: number[][] = cases.map(() => []);
  for (let r = 0; r < rounds; r++) {
    cases.forEach((run, c) => {
      const start = process.cpuUsage();
      for (let i = 0; i < perRound[c]; i++) sink ^= String(run()).length;
      const used = process.cpuUsage(start);
      samples[c].push(((used.user + used.system) * 1000) / perRound[c]);
    });
  }
  if (sink === -1) console.log(sink); // keeps the results alive
  return samples.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

function main(): void {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, ms: { type: 'string', default: '400' } } });
  const rounds = Number(values.rounds);
  const ms = Number(values.ms);
  const generated = compileResponseSerializer([UserDto]) as ResponseSerializer;
  const closures = compileResponseSerializer([UserDto], { codegen: false }) as ResponseSerializer;
  console.log(`node ${process.version}, 50 users x 12 fields, median of ${rounds} interleaved rounds of ~${ms} ms\n`);
  console.log('input            writer                               ns/op   ops/s   bytes');
  for (const asEntities of [false, true]) {
    const users = makeUsers(asEntities);
    const expected = JSON.stringify(generated.filter(users));
    if (generated.serialize(users) !== expected || closures.serialize(users) !== expected) {
      throw new Error('the serializers disagree with filter-then-JSON.stringify');
    }
    const cases: Array<[string, () => string | undefined]> = [
      ['compiled serializer (generated code)', () => generated.serialize(users)],
      ['compiled serializer (closures)', () => closures.serialize(users)],
      ['filter, then JSON.stringify', () => JSON.stringify(generated.filter(users))],
      ['JSON.stringify (unfiltered entity)', () => JSON.stringify(users)],
    ];
    const medians = measure(cases.map(([, run]) => run), rounds, ms);
    for (const [c, [name, run]] of cases.entries()) {
      const ns = medians[c];
      const input = asEntities ? 'class instances' : 'plain objects';
      const bytes = String(run()).length;
      console.log(`${input.padEnd(16)} ${name.padEnd(36)} ${ns.toFixed(0).padStart(6)} ${(1e9 / ns).toFixed(0).padStart(7)} ${String(bytes).padStart(7)}`);
    }
  }
}

main();
