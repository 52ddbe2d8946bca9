/**
 * Prints the run's totals as one plain line (`vitest: N passed, N failed, N skipped`) after the
 * default reporter, so CI logs end with a count any reader or tool can take in at a glance; then the
 * slowest files (import plus tests and hooks, in seconds), so every full run says where its time
 * went (issue 24 §3: CI's budget) without a profiler. Each failure also gets a line of its own
 * starting `failed: ` (file, test, the error's first line): `npm test` repeats those at its end
 * (run-suites.ts), where CI's log, of which only the tail may be kept, still shows them. A test that
 * passed only on a retry (the unit project retries once) gets a `flaky: ` line the same way.
 */
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

const SLOWEST_SHOWN = 12;
const ERROR_SHOWN = 300;

/** The first line of an error's message, cut: a failure's line stays one line. */
function firstLine(error: unknown): string {
  const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
  const line = message.split('\n').find((part) => part.trim() !== '') ?? '';
  return line.length > ERROR_SHOWN ? `${line.slice(0, ERROR_SHOWN)}…` : line;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const failures: string[] = [];
    for (const module of testModules) {
      const file = relative(process.cwd(), module.moduleId);
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') {
          passed++;
          const diagnostic = test.diagnostic();
          if (diagnostic?.flaky) failures.push(`flaky: ${file} > ${test.fullName}: passed on attempt ${diagnostic.retryCount + 1}`);
        } else if (result.state === 'failed') {
          failed++;
          failures.push(`failed: ${file} > ${test.fullName}: ${firstLine(result.errors?.[0])}`);
        } else skipped++;
      }
      // A file that failed to load, or whose beforeAll threw (its tests then count as skipped), has
      // no failed test case; count the file so it cannot pass silently.
      if (module.state() === 'failed' && ![...module.children.allTests()].some((test) => test.result().state === 'failed')) {
        failed++;
        failures.push(`failed: ${file}: ${firstLine(module.errors()[0])}`);
      }
    }
    failed += unhandledErrors.length;
    for (const error of unhandledErrors) failures.push(`failed: unhandled error: ${firstLine(error)}`);
    for (const failure of failures) process.stdout.write(`${failure}\n`);
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
