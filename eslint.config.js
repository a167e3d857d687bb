// One lint config for every package.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

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
  },
  {
    // What `aabify convert --local` runs at every start: its first use of these loads a Node module.
    files: ['packages/converter/src/**/*.ts', 'packages/cli/src/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'performance', message: 'Its first use loads perf_hooks (~1 ms of every CLI start): use monotonicMs() from packages/converter/src/clock.ts.' }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
