/**
 * The frame of a bench that runs against a local stack, so each bench script holds only what it measures:
 *
 *   - `runBench` prints `starting the local stack...` (`startingNote` in brackets before the dots), starts the stack (its log to the bench's log file,
 *     BENCH_ADMIN seeded, and any `stackOptions`), runs the bench's body, prints `bench failed: ...` if the body
 *     throws, stops the stack and closes the log whatever happened, and exits with the body's code (or
 *     `failureCode`, given beside the bench's log: `runBench({ ...bench, failureCode: 1 }, ...)`);
 *   - `benchTenant` makes the tenant most benches measure: a tenant of the first plan, made by BENCH_ADMIN,
 *     with one connection CONNECTED on the simulator, the given queues and a greeting (`Hello!` unless given).
 *
 * What a body starts beside the stack (receivers, clients) it stops in its own `finally`, before the stack stops.
 */
import { type LocalStack, type LocalStackOptions, startLocalStack } from '../../infra/local/stack.ts';
import { client, createTenant, firstPlanId, superLogin } from '../integration/tenants.ts';
import { connectedConnection, simulator } from '../integration/whatsapp-kit.ts';
import type { benchLog } from './bench-log.ts';

/** The super admin every bench's stack is seeded with. */
export const BENCH_ADMIN = { email: 'bench@conversa.test', password: 'Bench-Admin-1' };

export interface RunBenchOptions {
  /** The exit code when the body throws: 2 by default (1 is a missed goal). */
  failureCode?: number;
  /** How a thrown error is printed after `bench failed: `: its stack by default. */
  errorText?: (error: unknown) => string;
  /** The stack's options beyond the frame's own (e.g. bench:reconnect's gateway quota). */
  stackOptions?: Omit<LocalStackOptions, 'ports' | 'log' | 'seedAdmin'>;
  /** What those options set, said in the first line: `starting the local stack (<startingNote>)...`. */
  startingNote?: string;
}

const stackOf = (error: unknown) => (error instanceof Error ? (error.stack ?? error.message) : String(error));

/** Runs `body` against a local stack it starts and stops, then exits the process with the body's exit code. */
export async function runBench(
  bench: ReturnType<typeof benchLog> & RunBenchOptions,
  body: (stack: LocalStack) => Promise<number>,
): Promise<never> {
  const { failureCode = 2, errorText = stackOf, stackOptions, startingNote } = bench;
  bench.say(`starting the local stack${startingNote ? ` (${startingNote})` : ''}...`);
  // The stream consumers gather records as long as in AWS: their invocations are counted and billed.
  const stack = await startLocalStack({
    tableStreamWindowMs: 'declared',
    ...stackOptions,
    ports: 'auto',
    log: bench.log,
    seedAdmin: BENCH_ADMIN,
  });
  let exitCode = 0;
  try {
    exitCode = await body(stack);
  } catch (error) {
    bench.say(`bench failed: ${errorText(error)}`);
    exitCode = failureCode;
  } finally {
    await stack.stop();
    bench.logFile.end();
  }
  process.exit(exitCode);
}

/**
 * The API and simulator clients of `stack`, and a new tenant (`label`) with one connection CONNECTED serving `queues`
 * (`greeting: ''`: the connection greets no new contact, so the contacts get no reply the bench did not ask for).
 */
export async function benchTenant(stack: LocalStack, label: string, queues: string[], { greeting }: { greeting?: string } = {}) {
  const call = client(stack.apiUrl);
  const sim = simulator(stack.simulatorUrl);
  const tenant = await createTenant(call, await superLogin(call, BENCH_ADMIN), await firstPlanId(call), label);
  const setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues, greeting });
  return { call, sim, tenant, setup };
}
