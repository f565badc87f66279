import type { Config } from 'jest';
import base from './jest.config';

/**
 * End-to-end tests: real example apps on loopback, driven through Debian's Chromium with
 * playwright-core. `npm run test:e2e` runs them alone; `npm test` includes them (see jest.config.ts).
 */
const config: Config = {
  ...base,
  testMatch: ['<rootDir>/**/*.e2e.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  testTimeout: 300_000,
};

export default config;
