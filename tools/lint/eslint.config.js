'use strict';
// ESLint's flat configuration for the JavaScript and TypeScript of runner/ and clients/node,
// run by scripts/lint.sh from the repository's root. Formatting is Prettier's (.prettierrc.json
// at the root); eslint-config-prettier turns off the rules that would fight it.

const js = require('@eslint/js');
const globals = require('globals');
const tseslint = require('typescript-eslint');
const prettier = require('eslint-config-prettier');

const MAX_LEN = 120;

module.exports = tseslint.config(
  {
    ignores: ['**/node_modules/', 'clients/node/dist/', 'clients/node/src/schema.ts'],
  },
  js.configs.recommended,
  prettier,
  {
    files: ['runner/**/*.js', 'clients/node/**/*.js'],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'commonjs',
      globals: { ...globals.node },
    },
  },
  // The runner's Jest suites (its warm-up suite) run with Jest's globals.
  {
    files: ['runner/**/*.jest.js'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    files: ['clients/node/**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    rules: {
      // Prettier wraps code at its printWidth (120); it never wraps comments, so this checks the
      // lines that are comments only.
      'max-len': ['error', { code: MAX_LEN, ignoreUrls: true, ignorePattern: '^(?!\\s*(//|/\\*|\\*)).*$' }],
      'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-var': 'error',
      'prefer-const': 'error',
      strict: ['error', 'global'],
    },
  },
  {
    files: ['clients/node/**/*.ts'],
    rules: {
      strict: 'off',
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
);
