/**
 * vitest globalSetup of the integration project: one local stack on free ports with in-memory data
 * and the web app served, shared by every integration and browser test file. Tests read its
 * endpoints with `inject('apiUrl')` and so on. The stack's log goes to tests/artifacts/local-stack.log
 * (the test output stays readable; the file says what a handler threw).
 */
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { repoRoot } from '../../infra/local/lambda-runtime.ts';
import { type SessionHostControl, startLocalStack } from '../../infra/local/stack.ts';

export interface ProvidedStack {
  apiUrl: string;
  wsUrl: string;
  webUrl: string;
  /** The WhatsApp simulator's control API (infra/local/whatsapp-simulator/server.ts). */
  simulatorUrl: string;
  /** The fake bot providers (infra/local/bot-fakes/server.ts): /openai/v1, /typebot, /webhook, /dialogflow. */
  botFakesUrl: string;
  /**
   * Test-only control of the stack, which lives in this (the main) process while tests run in workers:
   *   POST /session-host/kill {signal?}   (SIGKILL by default; answers once it exited)
   *   POST /session-host/start            (answers once it logged that it started)
   */
  controlUrl: string;
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

interface Shared {
  ready: Promise<{ provided: ProvidedStack; stop: () => Promise<void> }>;
  users: number;
}
const SHARED = Symbol.for('conversa.integrationStack');
type WithShared = typeof globalThis & { [SHARED]?: Shared };

/**
 * The integration and browser projects share one stack when one vitest process runs both (`npx
 * vitest run`): the stack lives in this process and its handlers read process.env, so a second one
 * here would overwrite the first's settings. `npm test` runs them in two processes
 * (tests/support/run-suites.ts), one stack each. The last project to finish stops it.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as WithShared;
  holder[SHARED] ??= { ready: startShared(), users: 0 };
  const shared = holder[SHARED];
  shared.users++;
  const { provided } = await shared.ready;
  for (const [key, value] of Object.entries(provided) as [keyof ProvidedStack, ProvidedStack[keyof ProvidedStack]][]) {
    project.provide(key, value as never);
  }
  return async () => {
    shared.users--;
    if (shared.users > 0) return;
    holder[SHARED] = undefined;
    await (await shared.ready).stop();
  };
}

async function startShared(): Promise<{ provided: ProvidedStack; stop: () => Promise<void> }> {
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
  const control = await startControlServer(stack.sessionHost, log);
  const provided: ProvidedStack = {
    apiUrl: stack.apiUrl,
    wsUrl: stack.wsUrl,
    webUrl: stack.webUrl ?? '',
    simulatorUrl: stack.simulatorUrl,
    botFakesUrl: stack.botFakesUrl,
    controlUrl: control.url,
    admin: stack.admin,
    cognito: stack.cognito,
    env: stack.env,
  };
  return {
    provided,
    stop: async () => {
      await control.close();
      await stack.stop();
      await new Promise<void>((resolve) => logFile.end(resolve));
    },
  };
}

async function startControlServer(
  sessionHost: SessionHostControl,
  log: (line: string) => void,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const reply = (status: number, body: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => {
      void (async () => {
        if (req.method === 'POST' && req.url === '/session-host/kill') {
          const signal = ((text ? JSON.parse(text) : {}) as { signal?: NodeJS.Signals }).signal ?? 'SIGKILL';
          const pid = sessionHost.pid;
          log(`[control] session-host ${pid ?? '(not running)'} <- ${signal}`);
          await sessionHost.kill(signal);
          return reply(200, { killed: pid ?? null });
        }
        if (req.method === 'POST' && req.url === '/session-host/start') {
          await sessionHost.start();
          log(`[control] session-host started again as ${sessionHost.pid}`);
          return reply(200, { pid: sessionHost.pid ?? null });
        }
        reply(404, { error: 'not found' });
      })().catch((error: unknown) => reply(500, { error: error instanceof Error ? error.message : String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
