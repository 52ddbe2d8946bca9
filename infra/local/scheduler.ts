/**
 * Scheduled jobs locally: every declaration of functions/src/declarations/jobs.ts runs on a timer, doing
 * what its EventBridge rule does in AWS: invoke functions/src/handlers/jobs/<name>.ts with a
 * `Scheduled Event` every `rateMinutes`. A run still going when the next is due is skipped (in AWS
 * they would overlap; the jobs are safe either way, and one at a time keeps the local log readable).
 * A failed run is logged and the timer goes on, as the next EventBridge invocation would.
 */
import { randomUUID } from 'node:crypto';
import { type JobDeclaration, jobs } from '@conversa/functions/declarations/jobs';
import { handlerFile, type LambdaHandler, lambdaContext, loadHandler } from './lambda-runtime.ts';

export interface LocalSchedules {
  /** Jobs whose handler exists and that run on a timer. */
  running: string[];
  /** Waits for runs in flight. */
  stop(): Promise<void>;
}

export function scheduledEvent(name: string, region: string, time = new Date()) {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Scheduled Event',
    source: 'aws.events',
    account: '000000000000',
    time: time.toISOString(),
    region,
    resources: [`arn:aws:events:${region}:000000000000:rule/conversa-${name}`],
    detail: {},
  };
}

export function startSchedules(opts: {
  region: string;
  log: (line: string) => void;
  /** Defaults to functions/src/declarations/jobs.ts; tests pass their own. */
  declarations?: readonly JobDeclaration[];
  /** Handlers by job name instead of functions/src/handlers/jobs/<name>.ts (tests). */
  handlers?: Record<string, LambdaHandler>;
  /** Milliseconds between runs instead of rateMinutes (tests). */
  intervalMs?: (declaration: JobDeclaration) => number;
}): LocalSchedules {
  const timers: NodeJS.Timeout[] = [];
  const inFlight = new Set<Promise<void>>();
  const running: string[] = [];
  for (const declaration of opts.declarations ?? jobs) {
    const { name } = declaration;
    const given = opts.handlers?.[name];
    const load = given ? () => Promise.resolve(given) : () => loadHandler(handlerFile('jobs', name));
    let busy = false;
    const tick = () => {
      if (busy) {
        opts.log(`[schedule] ${name}: previous run still going, this one skipped`);
        return;
      }
      busy = true;
      const run = load()
        .then((handler) => handler(scheduledEvent(name, opts.region), lambdaContext(`conversa-${name}`, declaration.timeoutSeconds * 1000)))
        .then(
          () => undefined,
          (error: unknown) =>
            opts.log(`[schedule] ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
        )
        .finally(() => {
          busy = false;
          inFlight.delete(run);
        });
      inFlight.add(run);
    };
    const timer = setInterval(tick, opts.intervalMs?.(declaration) ?? declaration.rateMinutes * 60_000);
    // The schedule alone must not keep a process alive (tests, a stack being stopped).
    timer.unref();
    timers.push(timer);
    running.push(name);
  }
  return {
    running,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.allSettled([...inFlight]);
    },
  };
}
