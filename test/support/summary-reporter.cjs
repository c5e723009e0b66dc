// Mocha's spec reporter plus the closing line CI reads: "N passed, N failed, N skipped".
'use strict';
const Mocha = require('mocha');

const { Spec } = Mocha.reporters;
const { EVENT_RUN_END, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING } = Mocha.Runner.constants;

class SummaryReporter extends Spec {
  constructor(runner, options) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    runner.on(EVENT_TEST_PASS, () => (passed += 1));
    runner.on(EVENT_TEST_FAIL, () => (failed += 1));
    runner.on(EVENT_TEST_PENDING, () => (skipped += 1));
    runner.once(EVENT_RUN_END, () => {
      process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
    });
  }
}

module.exports = SummaryReporter;
