/**
 * Child processes for test stand-ins: free ports, readiness polling, and a stop that waits for exit.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';

// A port below the kernel's ephemeral range, so an outgoing connection cannot take it before the bind.
export { freePort } from '../../../infra/local/ports.ts';

export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
}

export interface Spawned {
  child: ChildProcess;
  /** Last lines of output, for the error message when the process dies early. */
  output: () => string;
  stop: () => Promise<void>;
}

export function spawnProcess(command: string, args: string[], options: SpawnOptions): Spawned {
  const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}
