/**
 * vitest globalSetup of the integration project: one local stack on free ports with in-memory data
 * and the web app served, shared by every integration and browser test file. Tests read its
 * endpoints with `inject('apiUrl')` and so on. The stack's log goes to tests/artifacts/local-stack.log
 * (the test output stays readable; the file says what a handler threw).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { startLocalStack } from '../../infra/local/stack.ts';

export interface ProvidedStack {
  apiUrl: string;
  wsUrl: string;
  webUrl: string;
  admin: { email: string; password: string };
  cognito: { endpoint: string; userPoolId: string; clientId: string };
  env: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext extends ProvidedStack {}
}

export const TEST_ADMIN = { email: 'super@conversa.test', password: 'Super-Admin-1' };
/** Per run: several engineers (and CI retries) may run the suite at once on one machine. */
export const stackLogFile = join(repoRoot, 'tests', 'artifacts', `local-stack-${process.pid}.log`);

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  mkdirSync(join(repoRoot, 'tests', 'artifacts'), { recursive: true });
  const logFile = createWriteStream(stackLogFile, { flags: 'w' });
  const log = (line: string) => logFile.write(`${new Date().toISOString()} ${line}\n`);
  const started = Date.now();
  let stack: Awaited<ReturnType<typeof startLocalStack>>;
  try {
    stack = await startLocalStack({ ports: 'auto', web: true, log, seedAdmin: TEST_ADMIN });
  } catch (error) {
    logFile.end();
    throw new Error(`The local stack did not start (log: ${stackLogFile}): ${error instanceof Error ? error.message : String(error)}`);
  }
  log(`[stack] ready in ${Date.now() - started} ms ${JSON.stringify(stack.timings)}`);
  const provided: ProvidedStack = {
    apiUrl: stack.apiUrl,
    wsUrl: stack.wsUrl,
    webUrl: stack.webUrl ?? '',
    admin: stack.admin,
    cognito: stack.cognito,
    env: stack.env,
  };
  for (const [key, value] of Object.entries(provided) as [keyof ProvidedStack, ProvidedStack[keyof ProvidedStack]][]) {
    project.provide(key, value as never);
  }
  return async () => {
    await stack.stop();
    await new Promise<void>((resolve) => logFile.end(resolve));
  };
}
