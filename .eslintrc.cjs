/* ESLint 8.57 reads this file by default; the legacy presets come from the split typescript-eslint packages. */
module.exports = {
  root: true,
  parser: '@typescript-eslint/parser',
  parserOptions: { ecmaVersion: 2022, sourceType: 'module' },
  plugins: ['@typescript-eslint', 'jest'],
  extends: [
    'eslint:recommended',
    'plugin:@typescript-eslint/recommended',
    'prettier',
  ],
  env: { node: true, es2022: true },
  ignorePatterns: ['dist/', 'node_modules/', 'coverage/', '*.js', '*.cjs'],
  rules: {
    '@typescript-eslint/no-explicit-any': 'warn',
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    '@typescript-eslint/no-unsafe-function-type': 'off',
    '@typescript-eslint/no-empty-object-type': 'off',
  },
  overrides: [
    {
      // Examples and the bench are apps, not the framework: the any rule guards the packages' types.
      files: ['examples/**/*.ts', 'bench/**/*.ts', 'test-support/**/*.ts'],
      rules: { '@typescript-eslint/no-explicit-any': 'off' },
    },
    {
      files: ['**/test/**/*.ts', '**/*.test.ts'],
      extends: ['plugin:jest/recommended'],
      env: { jest: true },
      rules: { 'jest/expect-expect': 'off', '@typescript-eslint/no-explicit-any': 'off' },
    },
  ],
};
