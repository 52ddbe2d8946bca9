/**
 * `npm test`'s test step: the browser project in one vitest process, and the unit, CDK and
 * integration projects in another, at the same time, each with its own local stack.
 *
 * Why two processes: one vitest process runs its projects' groups one after another, and the local
 * stack lives in the process that starts it (its handlers read process.env), so one process cannot
 * hold two stacks. The browser files keep Chromium busy while most integration files wait on
 * timers and queues (presence's two-minute window, the session-host killers' restarts), so running
 * both lines side by side costs little of either on two cores. Each line is still one file at a
 * time on its stack; the web app is built once, before either starts.
 *
 * Output: each line of a child's output goes out prefixed with its suite's name, as it comes. The
 * exit code is non-zero when either run fails.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { ensureWebBuild } from '../../infra/local/web-server.ts';

interface Suite {
  name: string;
  projects: string[];
}

const suites: Suite[] = [
  { name: 'browser', projects: ['browser'] },
  { name: 'main', projects: ['unit', 'cdk', 'integration'] },
];

function run(suite: Suite, extraArgs: string[]): Promise<number> {
  const args = ['vitest', 'run', ...suite.projects.flatMap((project) => ['--project', project]), ...extraArgs];
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
// Built once here (a production build, whatever NODE_ENV says) so the two stacks never race to write web/dist.
await ensureWebBuild((line) => process.stdout.write(`${line}\n`));
const codes = await Promise.all(suites.map((suite) => run(suite, process.argv.slice(2))));
const seconds = Math.round((Date.now() - started) / 1000);
for (const [index, suite] of suites.entries()) process.stdout.write(`${suite.name}: ${codes[index] === 0 ? 'passed' : 'FAILED'}\n`);
process.stdout.write(`tests took ${seconds} s\n`);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
