/**
 * A bench's two outputs: its figures on stdout (`say`) and the local stack's log in
 * tests/artifacts/bench-<name>.log (`log`, written by `logFile`).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';

export function benchLog(name: string) {
  mkdirSync(join(repoRoot, 'tests', 'artifacts'), { recursive: true });
  const logFile = createWriteStream(join(repoRoot, 'tests', 'artifacts', `bench-${name}.log`), { flags: 'w' });
  return {
    logFile,
    log: (line: string) => logFile.write(`${new Date().toISOString()} ${line}\n`),
    say: (line: string) => process.stdout.write(`${line}\n`),
  };
}
