/**
 * How a test starts a TypeScript example in a child process without `npm run build`: ts-node
 * transpiles (no type check: `npm test` already ran tsc) with the test tsconfig, so decorators
 * and their metadata work, and workspace-sources.ts maps `@tern/*` to the sources. Child
 * processes a node:cluster primary forks inherit both through `process.execArgv`.
 */
import { join } from 'node:path';

const rootDir = join(__dirname, '..');

/** `node` arguments that go before the example's entry file. */
export const SOURCE_EXEC_ARGV = ['-r', 'ts-node/register/transpile-only', '-r', join(__dirname, 'workspace-sources.ts')];

/** Environment variables ts-node reads. */
export const SOURCE_ENV = { TS_NODE_PROJECT: join(rootDir, 'tsconfig.test.json') };

/** The repository root, a good working directory for such a child. */
export const ROOT_DIR = rootDir;
