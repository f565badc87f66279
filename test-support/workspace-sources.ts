/**
 * Preload for child processes that run examples from their TypeScript sources, as jest does:
 * `node -r ts-node/register/transpile-only -r ./test-support/workspace-sources.ts main.ts`.
 * It points `@tern/core` and `@tern/file-router` at `packages/<name>/src` with jest's own
 * mapping, so a test of a multi-process example needs no `npm run build` first.
 */
import Module from 'node:module';
import { join } from 'node:path';
import { moduleNameMapper } from '../jest.config';

type ResolveFilename = (this: unknown, request: string, ...rest: unknown[]) => string;
const loader = Module as unknown as { _resolveFilename: ResolveFilename };

const rootDir = join(__dirname, '..');
const mappings = Object.entries(moduleNameMapper).map(([pattern, target]) => ({
  pattern: new RegExp(pattern),
  target: target.replace('<rootDir>', rootDir),
}));

const resolveFilename = loader._resolveFilename;
loader._resolveFilename = function (request, ...rest) {
  const mapping = mappings.find(({ pattern }) => pattern.test(request));
  const mapped = mapping ? request.replace(mapping.pattern, mapping.target) : request;
  return resolveFilename.call(this, mapped, ...rest);
};
