/**
 * Prints the run's totals as one plain line (`vitest: N passed, N failed, N skipped`) after the
 * default reporter, so CI logs end with a count any reader or tool can take in at a glance.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
      }
      // A file that failed to load, or whose beforeAll threw (its tests then count as skipped), has
      // no failed test case; count the file so it cannot pass silently.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((test) => test.result().state === 'failed')) failed++;
    }
    failed += unhandledErrors.length;
    process.stdout.write(`\nvitest: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  }
}
