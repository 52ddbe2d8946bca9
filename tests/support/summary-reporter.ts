/**
 * Prints the run's totals as one plain line (`vitest: N passed, N failed, N skipped`) after the
 * default reporter, so CI logs end with a count any reader or tool can take in at a glance; then the
 * slowest files (import plus tests and hooks, in seconds), so every full run says where its time
 * went (issue 24 §3: CI's budget) without a profiler.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST_SHOWN = 12;

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
    const timed = testModules
      .map((module) => {
        const { collectDuration, duration } = module.diagnostic();
        return { file: relative(process.cwd(), module.moduleId), seconds: (collectDuration + duration) / 1000 };
      })
      .sort((a, b) => b.seconds - a.seconds);
    if (timed.length < 2) return;
    const total = timed.reduce((sum, { seconds }) => sum + seconds, 0);
    const shown = timed.slice(0, SLOWEST_SHOWN).map(({ file, seconds }) => `${file} ${seconds.toFixed(0)} s`);
    process.stdout.write(`slowest of ${timed.length} files (${total.toFixed(0)} s in all): ${shown.join(', ')}\n`);
  }
}
