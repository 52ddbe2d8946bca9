/**
 * `npm test`'s test step, in two phases of two vitest processes side by side:
 *   1. the unit project (two files at a time) beside the CDK template tests (one at a time). The
 *      unit files mostly wait on DynamoDB Local and cognito-local (the phase was 53-84 % busy on two
 *      cores alone); the CDK tests (synths, esbuild) lengthen it by less than they took in a line.
 *   2. two lines, each with its own local stack: most browser files in one; the integration files and
 *      the other browser files in the other.
 *
 * Why two processes in phase 2: one vitest process runs its projects' groups one after another, and
 * the local stack lives in the process that starts it (its handlers read process.env), so one
 * process cannot hold two stacks. The browser files keep Chromium busy while most integration files
 * wait on timers and queues (presence's two-minute window, the session-host killers' restarts), so
 * running those two lines side by side costs little of either on two cores; the unit files beside
 * them did (load 11 on 2 cores, each line three times slower). A quarter of the browser files run in
 * the integration line to even the two out (balanced(): alone, the browser line took ~23 min and the
 * integration one ~10). Each line is still one browser or integration file at a time on its stack;
 * the web app is built once, before either starts.
 *
 * Output: each line of a child's output goes out prefixed with its suite's name, as it comes; the
 * summary reporter's `failed: ` and `flaky: ` lines are said again at the end, beside each suite's result, since a
 * failure in the first phase is otherwise 15 minutes of output above the end of the log. The exit
 * code is non-zero when any run fails.
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { ensureWebBuild } from '../../infra/local/web-server.ts';

interface Suite {
  name: string;
  projects: string[];
  /** Path filters (vitest's CLI arguments); none: every file of the projects. */
  files?: string[];
  /** More vitest options for this suite. */
  options?: string[];
}

/**
 * The browser files, one in four of them (by name) to the integration line: alone, the browser line
 * took about twice the integration one, whose files leave the CPU idle while they wait. In that line
 * they run first on its stack (integration-sequencer.ts), the session-host killers still last.
 */
function balanced(): Suite[] {
  const browserFiles = readdirSync(join(repoRoot, 'tests', 'browser'))
    .filter((file) => file.endsWith('.test.ts'))
    .sort()
    .map((file) => `tests/browser/${file}`);
  const moved = browserFiles.filter((_, index) => index % 4 === 3);
  return [
    { name: 'browser', projects: ['browser'], files: browserFiles.filter((file) => !moved.includes(file)) },
    { name: 'integration', projects: ['browser', 'integration'], files: [...moved, 'tests/integration/'] },
  ];
}

/**
 * The CDK files one at a time beside unit: with two at once the unit files, slowed by their CPU,
 * took 68 s longer; with one, 45 s (236 -> 281 s, same sitting), while the line they left got
 * ~100 s shorter.
 */
const firstPhase: Suite[] = [
  { name: 'unit', projects: ['unit'] },
  { name: 'cdk', projects: ['cdk'], options: ['--maxWorkers=1'] },
];

/** Each suite's `failed: ...` and `flaky: ...` lines (summary-reporter.ts), to be repeated at the end. */
const failures = new Map<string, string[]>();

function run(suite: Suite, extraArgs: string[]): Promise<number> {
  const args = [
    'vitest',
    'run',
    ...suite.projects.flatMap((project) => ['--project', project]),
    ...(suite.options ?? []),
    ...(suite.files ?? []),
    ...extraArgs,
  ];
  const child = spawn('npx', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = `[${suite.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    const out = stream === child.stdout ? process.stdout : process.stderr;
    createInterface({ input: stream }).on('line', (line) => {
      out.write(`${prefix}${line}\n`);
      if (line.startsWith('failed: ') || line.startsWith('flaky: ')) failures.set(suite.name, [...(failures.get(suite.name) ?? []), line]);
    });
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

/** Runs the suites side by side; each one's result with its own seconds. */
const runSideBySide = (suites: Suite[], extraArgs: string[]) =>
  Promise.all(
    suites.map(async (suite) => {
      const suiteStarted = Date.now();
      const code = await run(suite, extraArgs);
      return { name: suite.name, code, seconds: Math.round((Date.now() - suiteStarted) / 1000) };
    }),
  );

const started = Date.now();
// Files or filters given (`npx tsx tests/support/run-suites.ts tests/browser/shell.test.ts`): a suite
// none of them names passes empty rather than failing.
const args = process.argv.length > 2 ? [...process.argv.slice(2), '--passWithNoTests'] : [];
// Built once here (a production build, whatever NODE_ENV says) so the two stacks never race to write web/dist.
const built = ensureWebBuild((line) => process.stdout.write(`${line}\n`));
const first = await runSideBySide(firstPhase, args);
await built;
// With filters given, each line takes the whole of its projects and the filters pick the files.
const lines: Suite[] = args.length
  ? [
      { name: 'browser', projects: ['browser'] },
      { name: 'integration', projects: ['integration'] },
    ]
  : balanced();
// Each suite's own seconds (from its phase's start), so a run says which one sets CI's length.
const results = [...first, ...(await runSideBySide(lines, args))];
for (const { name, code, seconds } of results) {
  process.stdout.write(`${name}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)\n`);
  for (const line of failures.get(name) ?? []) process.stdout.write(`  ${line}\n`);
}
process.stdout.write(`tests took ${Math.round((Date.now() - started) / 1000)} s\n`);
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);
