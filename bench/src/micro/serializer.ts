/**
 * Micro-benchmark of response serialization (not a test, not part of `npm run bench`):
 * 50 users of 12 fields (a nested address, a list of tags, a Date, and two fields the model
 * leaves out: one `@Exclude()`d, one undeclared), written by
 *
 *   - the compiled serializer (generated code, then the closure fallback), and the generated
 *     one followed by the `Buffer.byteLength` that sending it costs (cheap on the flat string
 *     the generated code reads back from its bytes; a string built with `+` is a rope that V8
 *     flattens right there),
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
import { parseArgs } from 'node:util';
import { compileResponseSerializer, type ResponseSerializer } from '../../../packages/core/src/serialization/compile';
import { defaultModelCompiler } from '../../../packages/core/src/validation';
import { makeUsers, UserDto } from '../shared/users';

/** The stored users as entities, or as plain objects with the same fields (a JSON cache). */
function usersFor(asEntities: boolean): object[] {
  return asEntities ? makeUsers() : makeUsers().map((user) => ({ ...user }));
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
  if (sink === -1) console.log(sink, bytesCounted); // keeps the results alive
  return samples.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]);
}

let bytesCounted = 0;

/** The text, after counting its UTF-8 bytes as the response writer does for Content-Length. */
function withByteLength(text: string): string {
  bytesCounted += Buffer.byteLength(text);
  return text;
}

function main(): void {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '15' }, ms: { type: 'string', default: '400' } } });
  const rounds = Number(values.rounds);
  const ms = Number(values.ms);
  const generated = compileResponseSerializer([UserDto], { modelCompiler: defaultModelCompiler }) as ResponseSerializer;
  const closures = compileResponseSerializer([UserDto], { modelCompiler: defaultModelCompiler, codegen: false }) as ResponseSerializer;
  console.log(`node ${process.version}, 50 users x 12 fields, median of ${rounds} interleaved rounds of ~${ms} ms\n`);
  console.log('input            writer                               ns/op   ops/s   bytes');
  for (const asEntities of [false, true]) {
    const users = usersFor(asEntities);
    const expected = JSON.stringify(generated.filter(users));
    if (generated.serialize(users) !== expected || closures.serialize(users) !== expected) {
      throw new Error('the serializers disagree with filter-then-JSON.stringify');
    }
    const cases: Array<[string, () => string | undefined]> = [
      ['compiled serializer (generated code)', () => generated.serialize(users)],
      // What sending costs on top: Content-Length needs the UTF-8 length (and a rope flattened).
      ['generated, then Buffer.byteLength', () => withByteLength(generated.serialize(users) as string)],
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
