// Spec output plus a summary line per package appended to $AABIFY_TEST_SUMMARY, so the
// root `npm test` can print one total and, at its very end, the failed tests with their errors
// (a CI log is often read from its tail). In CI a pending (skipped) test counts as a failure:
// CI has everything a test may need, so a skip there hides something.
const fs = require('node:fs');
const Mocha = require('mocha');
const { EVENT_RUN_END, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

/** The first lines of an error: enough to tell which assertion failed and where. */
function errorHead(err) {
  const text = String((err && (err.stack || err.message)) || err);
  return text.split('\n').slice(0, 8).join('\n');
}

class AabifyReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const ci = process.env.CI === 'true';
    const failed = [];
    runner.on(EVENT_TEST_FAIL, (test, err) => failed.push({ title: test.fullTitle(), file: test.file, error: errorHead(err) }));
    runner.on(EVENT_TEST_PENDING, (test) => {
      if (ci) {
        runner.failures += 1;
        process.stdout.write(`  CI: skipped test counts as failure: ${test.fullTitle()}\n`);
      }
    });
    runner.once(EVENT_RUN_END, () => {
      const s = this.stats;
      const file = process.env.AABIFY_TEST_SUMMARY;
      if (file) {
        fs.appendFileSync(file, JSON.stringify({ cwd: process.cwd(), passes: s.passes, failures: s.failures, pending: s.pending, failed }) + '\n');
      }
      if (ci && s.pending > 0) process.exitCode = 1;
    });
  }
}
module.exports = AabifyReporter;
