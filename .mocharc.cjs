// Shared mocha config: every package runs its TypeScript tests through tsx (no compile step).
// The spec glob is in each package's `test` script, so `npx mocha --config ../../.mocharc.cjs
// test/one.test.ts` runs just that file.
module.exports = {
  'node-option': ['import=tsx'],
  reporter: require.resolve('./scripts/mocha-reporter.cjs'),
  timeout: 30000,
  exit: true,
};
