/**
 * Child processes of the local stack (DynamoDB Local, cognito-local, session-host): their output
 * goes to the stack's log line by line with a prefix, and stop() ends the whole process group so
 * nothing is left behind when `npm start` gets Ctrl-C or a test run ends.
 */
import { type ChildProcess, spawn } from 'node:child_process';

export interface Child {
  readonly process: ChildProcess;
  readonly name: string;
  /** Resolves when the child has exited (for any reason). */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  name: string;
  command: string;
  args: string[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  log: (line: string) => void;
  /** Sees every output line (ANSI stripped) before it is logged; returns false to keep it out of the log. */
  onLine?: (line: string) => boolean | undefined;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escapes are control characters by definition.
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;
export const stripAnsi = (text: string): string => text.replace(ANSI, '');

const children = new Set<Child>();

export function spawnChild(options: SpawnOptions): Child {
  // detached: the child leads its own process group, so stop() can end its descendants too.
  const proc = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => resolve(code));
    proc.once('error', (error) => {
      options.log(`[${options.name}] failed to start: ${error.message}`);
      resolve(null);
    });
  });
  for (const stream of [proc.stdout, proc.stderr]) {
    let buffer = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const raw of lines) {
        const line = stripAnsi(raw).trimEnd();
        if (!line.trim()) continue;
        if (options.onLine?.(line) === false) continue;
        options.log(`[${options.name}] ${line}`);
      }
    });
  }
  let stopping: Promise<void> | undefined;
  const child: Child = {
    process: proc,
    name: options.name,
    exited,
    stop() {
      stopping ??= (async () => {
        if (proc.exitCode === null && proc.signalCode === null && proc.pid) {
          signalGroup(proc.pid, 'SIGTERM');
          const timer = setTimeout(() => proc.pid && signalGroup(proc.pid, 'SIGKILL'), 5000);
          await exited;
          clearTimeout(timer);
        }
        children.delete(child);
      })();
      return stopping;
    },
  };
  children.add(child);
  return child;
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

// Last resort: if our process exits without stop() (an uncaught error), take the children with it.
process.once('exit', () => {
  for (const child of children) if (child.process.pid) signalGroup(child.process.pid, 'SIGKILL');
});

export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  opts: { timeoutMs?: number; exited?: Promise<unknown> } = {},
): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
  let gone = false;
  void opts.exited?.then(() => {
    gone = true;
  });
  while (Date.now() < deadline) {
    if (gone) throw new Error(`${what} exited before it was ready (see the log above)`);
    if (await probe().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${Math.round((opts.timeoutMs ?? 60_000) / 1000)} s`);
}
