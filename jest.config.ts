import type { Config } from 'jest';

/**
 * Tests run against the TypeScript sources of every workspace package, so `npm test` needs no
 * build. Type checking is done once by `tsc -p tsconfig.test.json` (the `typecheck` script),
 * which lets ts-jest transpile each file on its own and keeps the suite fast.
 */
export const moduleNameMapper = {
  '^@tern/core$': '<rootDir>/packages/core/src/index.ts',
  '^@tern/core/(.*)$': '<rootDir>/packages/core/src/$1/index.ts',
  '^@tern/file-router$': '<rootDir>/packages/file-router/src/index.ts',
  '^@tern/file-router/(.*)$': '<rootDir>/packages/file-router/src/$1/index.ts',
};

const config: Config = {
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
  moduleNameMapper,
  // Browser tests (*.e2e.test.ts) are part of `npm test` too: what a user sees in /docs matters.
  testMatch: ['<rootDir>/packages/*/test/**/*.test.ts', '<rootDir>/examples/**/*.test.ts', '<rootDir>/bench/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  setupFiles: ['reflect-metadata'],
};

export default config;
