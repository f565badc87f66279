import type { Config } from 'jest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import base from './jest.config';

/**
 * `npm run test:quick`: the tests that talk to Tern through `app.inject()` only, for a
 * contributor's edit-test loop. A test file that opens a socket, starts a child process or a
 * browser, or needs a database server is left to `npm test`; which files those are is read from
 * the files themselves, so a new test lands on the right side without a list to keep.
 */
const SLOW_MARKERS = [
  /\.listen\(/,
  /from 'node:(net|child_process|cluster|worker_threads)'/,
  /test-support\/(browser|raw-http|stream-client|source-process)'/,
  /newman|pglite|POSTGRES_TEST_URL|REDIS_TEST_URL/i,
];

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const roots = ['packages', 'examples', 'bench/test'].map((dir) => join(__dirname, dir));
const slowFiles = roots.flatMap(testFiles).filter((file) => {
  const text = readFileSync(file, 'utf8');
  return file.endsWith('.e2e.test.ts') || SLOW_MARKERS.some((marker) => marker.test(text));
});
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const config: Config = {
  ...base,
  testPathIgnorePatterns: [...(base.testPathIgnorePatterns ?? []), ...slowFiles.map((file) => `<rootDir>/${escape(relative(__dirname, file))}$`)],
};

export default config;
