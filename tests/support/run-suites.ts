/**
 * `npm test`'s test step: the unit project first (two files at a time, CPU-bound), then two
 * vitest processes side by side, each with its own local stack: most browser files in one; the CDK
 * template tests, the other browser files and the integration files in the other.
 *
 * Why two processes: one vitest process runs its projects' groups one after another, and the local
 * stack lives in the process that starts it (its handlers read process.env), so one process cannot
 * hold two stacks. The browser files keep Chromium busy while most integration files wait on
 * timers and queues (presence's two-minute window, the session-host killers' restarts), so running
 * those two lines side by side costs little of either on two cores; the unit files beside them did
 * (load 11 on 2 cores, each line three times slower). The CDK tests and a quarter of the browser
 * files run in the integration line to even the two out (balanced(): alone, the browser line took
 * ~23 min and the integration one ~10). Each line is still one browser or integration file at a
 * time on its stack; the web app is built once, before either starts.
 *
 * Output: each line of a child's output goes out prefixed with its suite's name, as it comes. The
 * exit code is non-zero when either run fails.
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
    { name: 'integration', projects: ['cdk', 'browser', 'integration'], files: ['infra/test/', ...moved, 'tests/integration/'] },
  ];
}

// With filters given, cdk runs here with unit; otherwise in the integration line (balanced()).
const first = (filtered: boolean): Suite => ({ name: 'unit', projects: filtered ? ['unit', 'cdk'] : ['unit'] });

function run(suite: Suite, extraArgs: string[]): Promise<number> {
  const args = ['vitest', 'run', ...suite.projects.flatMap((project) => ['--project', project]), ...(suite.files ?? []), ...extraArgs];
  const child = spawn('npx', args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'], env: process.env });
  const prefix = `[${suite.name}] `;
  for (const stream of [child.stdout, child.stderr]) {
    const out = stream === child.stdout ? process.stdout : process.stderr;
    createInterface({ input: stream }).on('line', (line) => out.write(`${prefix}${line}\n`));
  }
  return new Promise((resolve) => {
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const started = Date.now();
// Files or filters given (`npx tsx tests/support/run-suites.ts tests/browser/shell.test.ts`): a suite
// none of them names passes empty rather than failing.
const args = process.argv.length > 2 ? [...process.argv.slice(2), '--passWithNoTests'] : [];
// Built once here (a production build, whatever NODE_ENV says) so the two stacks never race to write web/dist.
const built = ensureWebBuild((line) => process.stdout.write(`${line}\n`));
const unitCode = await run(first(args.length > 0), args);
const unitSeconds = Math.round((Date.now() - started) / 1000);
await built;
// With filters given, each line takes the whole of its projects and the filters pick the files.
const sideBySide: Suite[] = args.length
  ? [
      { name: 'browser', projects: ['browser'] },
      { name: 'integration', projects: ['integration'] },
    ]
  : balanced();
// Each line's own seconds (from its start, after unit), so a run says which line sets CI's length.
const lines = await Promise.all(
  sideBySide.map(async (suite) => {
    const lineStarted = Date.now();
    const code = await run(suite, args);
    return { name: suite.name, code, seconds: Math.round((Date.now() - lineStarted) / 1000) };
  }),
);
const results = [{ name: 'unit', code: unitCode, seconds: unitSeconds }, ...lines];
for (const { name, code, seconds } of results) process.stdout.write(`${name}: ${code === 0 ? 'passed' : 'FAILED'} (${seconds} s)\n`);
process.stdout.write(`tests took ${Math.round((Date.now() - started) / 1000)} s\n`);
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);
