// Shared mocha config: every package runs its TypeScript tests through tsx (no compile step).
module.exports = {
  spec: ['test/**/*.test.ts'],
  'node-option': ['import=tsx'],
  reporter: require.resolve('./scripts/mocha-reporter.cjs'),
  timeout: 30000,
  exit: true,
};
