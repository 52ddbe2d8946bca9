import { defineConfig } from 'vitest/config';
import IntegrationSequencer from './tests/support/integration-sequencer.ts';

/**
 * Three rings (STYLE 9): unit (no network), cdk (template assertions), integration and browser (a
 * local stack started by the global setup on free ports, shared by every file of the project).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    // Vitest reads the sequencer from the root config only (a project's `sequence.sequencer` is ignored).
    sequence: { sequencer: IntegrationSequencer },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['functions/test/**/*.test.ts', 'session-host/test/**/*.test.ts', 'web/test/**/*.test.ts'],
          globalSetup: ['tests/support/unit-global-setup.ts'],
          // A worker runs file after file without restarting (issue 24 §3: loading the SDK and the
          // rest of node_modules again was a third of the project's time); the setup file gives each
          // file fresh modules of ours and drops the previous file's mocks.
          isolate: false,
          setupFiles: ['tests/support/unit-file-modules.ts'],
          testTimeout: 20_000,
          // One more attempt for a test that failed: stop 33's CI lost a unit test to the load of the
          // run beside it (passing alone, and in three runs of the phase after). A test that passes
          // only on its retry is named on a `flaky:` line (summary-reporter.ts), so it stays seen.
          retry: 1,
          // Two files at a time even on 2 cores (vitest's default there is one): a unit file mostly
          // waits on DynamoDB Local and cognito-local, so a second one fills the gaps.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'cdk',
          include: ['infra/test/**/*.test.ts'],
          // Files share a worker's modules, so identical synths are made once per worker (test/synth.ts).
          isolate: false,
          // `npm test` runs it in a process of its own beside the unit project (run-suites.ts).
          maxWorkers: 2,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      // One file at a time on a stack. `npm test` runs the browser project in a process (and stack) of
      // its own beside the rest (tests/support/run-suites.ts); one process running both shares a stack.
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
