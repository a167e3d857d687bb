// One lint config for every package.
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import { createNodeResolver } from 'eslint-plugin-import-x';
import typeImportsCount from './scripts/eslint-type-imports-count.cjs';

/**
 * The packages whose modules may not import each other in a circle, type-only imports included
 * (a cycle of types still ties two modules into one).
 */
const NO_CYCLE_PACKAGES = ['shared', 'converter', 'cli', 'dashboard', 'server'];

// Every rule of the plugin's recommended set, as an error: a finding fails the lint.
const reactHooksRules = Object.fromEntries(Object.keys(reactHooks.configs['recommended-latest'].rules).map((rule) => [rule, 'error']));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.cache/**', 'data/**', 'test-artifacts/**', 'bench/out/**', 'packages/converter/src/proto/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['packages/dashboard/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooksRules,
  },
  {
    files: NO_CYCLE_PACKAGES.map((name) => `packages/${name}/src/**/*.{ts,tsx}`),
    plugins: { 'import-x': typeImportsCount.importXCountingTypes },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/parsers': { [fileURLToPath(new URL('./scripts/eslint-type-imports-count.cjs', import.meta.url))]: ['.ts', '.tsx'] },
      // Sources import `./x.js` for `./x.ts` (the dashboard leaves the extension out).
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'], extensionAlias: { '.js': ['.ts', '.tsx', '.js'] } })],
    },
    // Type-only imports counted too (scripts/eslint-type-imports-count.cjs).
    rules: { 'import-x/no-cycle': 'error' },
  },
  {
    // What `aabify convert --local` runs at every start: its first use of these loads a Node module.
    files: ['packages/converter/src/**/*.ts', 'packages/cli/src/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'performance', message: 'Its first use loads perf_hooks (~1 ms of every CLI start): use monotonicMs() from packages/converter/src/clock.ts.' }],
    },
  },
  {
    // A row lock that only serializes writers. FOR UPDATE would also block every insert that
    // references the row (its foreign-key check takes KEY SHARE), and a transaction holding such
    // a key lock while it waits for a row we hold deadlocks with us: FOR NO KEY UPDATE does not
    // conflict with it. No code of ours changes a primary key.
    files: ['packages/server/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='UPDATE'][object.property.name='LOCK']",
          message: 'Lock rows with LOCK.NO_KEY_UPDATE: FOR UPDATE blocks the foreign-key checks of inserts that reference the row, which can deadlock (docs/architecture.md, "Row locks").',
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
