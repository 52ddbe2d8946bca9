/**
 * The CPU a local stack spends, by process, for the benches that print a product's cost beside its
 * latencies (on a machine shared with other work the latencies measure the machine too).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';

/**
 * CPU ms (user + system) of this process and each of its descendants by name (java for DynamoDB
 * Local, the session-host, ...), from /proc (Linux); undefined elsewhere.
 */
export function stackCpuMs(): Map<string, number> | undefined {
  try {
    const stats = readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .flatMap((pid) => {
        try {
          // Fields after the command's closing parenthesis: state ppid ... utime(12th) stime(13th)
          const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
          const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
          const name = Number(pid) === process.pid ? 'this process' : processName(argv);
          return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), name }];
        } catch {
          return []; // exited meanwhile
        }
      });
    const mine = new Set([process.pid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const stat of stats)
        if (mine.has(stat.ppid) && !mine.has(stat.pid)) {
          mine.add(stat.pid);
          grew = true;
        }
    }
    const byName = new Map<string, number>();
    // Clock ticks are 1/100 s on Linux (USER_HZ).
    for (const stat of stats.filter((s) => mine.has(s.pid))) byName.set(stat.name, (byName.get(stat.name) ?? 0) + stat.ticks * 10);
    return byName;
  } catch {
    return undefined;
  }
}

function processName(argv: string[]): string {
  if (argv[0]?.endsWith('java')) return 'DynamoDB Local';
  const script = argv.find((arg) => /\.(ts|js|mjs)$/.test(arg) && !arg.includes('node_modules'));
  return script ? script.replace(`${repoRoot}/`, '') : (argv[0] ?? '?');
}

export const sumOf = (cpu: Map<string, number>) => [...cpu.values()].reduce((a, b) => a + b, 0);
