/**
 * The esbuild options every Lambda is bundled with, shared by the stack (NodejsFunction) and the
 * bundle bench (tests/bench/bundles.ts) so the bench measures exactly what is deployed.
 * No aws-cdk-lib import here: the bench loads this without paying for the CDK.
 */

import { jobs } from '@conversa/functions/declarations/jobs';
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { httpFunctions, wsRouteKeys } from '@conversa/functions/routes';
import { consumerEntry, httpEntry, jobEntry, wsEntry } from './paths.ts';

export const LAMBDA_NODE_TARGET = 'node22';

/** ESM output still meets CommonJS dependencies that call `require`; give them one. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module';const require = createRequire(import.meta.url);";

/**
 * The nodejs22.x runtime ships AWS SDK v3; bundling it would put every handler near 1 MB
 * (measured: ~500 KB of SDK per handler), so it stays external like the CDK default.
 */
export const EXTERNAL_MODULES = ['@aws-sdk/*'];

/** Prefer ESM builds of dependencies so esbuild can tree-shake them. */
export const MAIN_FIELDS = ['module', 'main'];

export const MAX_BUNDLE_BYTES = 500 * 1024;

export interface LambdaEntry {
  /** Construct id and bench label. */
  name: string;
  entry: string;
  kind: 'http' | 'ws' | 'queue' | 'scheduled';
}

/** Every Lambda the stack deploys, derived from the shared declarations (routes.ts, queues.ts, schedules.ts). */
export function lambdaEntries(): LambdaEntry[] {
  const entries: LambdaEntry[] = httpFunctions.map((fn) => ({ name: fn, entry: httpEntry(fn), kind: 'http' }));
  if (wsRouteKeys.length > 0) entries.push({ name: 'realtime', entry: wsEntry(), kind: 'ws' });
  for (const queue of messageQueues) {
    if (queue.consumer) entries.push({ name: queue.consumer, entry: consumerEntry(queue.consumer), kind: 'queue' });
  }
  for (const schedule of jobs) entries.push({ name: schedule.name, entry: jobEntry(schedule.name), kind: 'scheduled' });
  return entries;
}
