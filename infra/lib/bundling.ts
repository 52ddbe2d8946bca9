/**
 * How every Lambda is bundled, shared by the stack (ConversaFunction's local bundling) and the
 * bundle bench (tests/bench/bundles.ts) so the bench measures exactly what is deployed.
 * No aws-cdk-lib import here: the bench loads this without paying for the CDK.
 *
 * The AWS SDK is bundled and tree-shaken into each function, and the bundle is split (esbuild's
 * code splitting): what a cold start needs is `index.mjs` and the chunks it imports statically;
 * code behind `await import()` (the SDK's credential providers other than the environment's, its
 * event streams, and our own rarely used clients, see functions/src/adapters) is a chunk loaded
 * only when first reached. Measured side by side with `npm run bench:bundles -- --compare` (figures
 * in README, "Benchmarks"): the runtime's SDK left external costs every cold start hundreds of
 * CommonJS files to resolve and evaluate; bundled in one file, each function loads 150-300 KB it
 * never runs.
 */

import { cognitoTriggers } from '@conversa/functions/declarations/cognito-triggers';
import { jobs } from '@conversa/functions/declarations/jobs';
import { messageQueues } from '@conversa/functions/declarations/message-queues';
import { tableStreamConsumers } from '@conversa/functions/declarations/table-streams';
import { httpFunctions, wsRouteKeys } from '@conversa/functions/routes';
import type { BuildOptions, Metafile } from 'esbuild';
import { consumerEntry, httpEntry, jobEntry, streamEntry, triggerEntry, wsEntry } from './paths.ts';

export const LAMBDA_NODE_TARGET = 'node22';

/** ESM output still meets CommonJS dependencies that call `require`; give them one. */
export const ESM_REQUIRE_BANNER = "import { createRequire } from 'node:module';const require = createRequire(import.meta.url);";

/** Prefer ESM builds of dependencies so esbuild can tree-shake them. */
export const MAIN_FIELDS = ['module', 'main'];

/** What one cold start may load (index.mjs and its static chunks, minified). */
export const MAX_BUNDLE_BYTES = 500 * 1024;

/** The handler file in each function's asset; the runtime's handler is `index.handler`. */
export const ENTRY_FILE = 'index.mjs';

/**
 * The variants the bench compares. `deployed` is what the stack ships; the others are kept to show
 * why: `sdk-external` (one file, the runtime's SDK) and `sdk-bundled` (one file, SDK inside).
 */
export type BundleVariant = 'deployed' | 'sdk-external' | 'sdk-bundled';

/** esbuild's options for one function written to `outdir` (its asset directory). */
export function lambdaBuildOptions(entry: string, outdir: string, variant: BundleVariant = 'deployed'): BuildOptions {
  return {
    entryPoints: { index: entry },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_NODE_TARGET,
    banner: { js: ESM_REQUIRE_BANNER },
    mainFields: MAIN_FIELDS,
    external: variant === 'sdk-external' ? ['@aws-sdk/*'] : [],
    splitting: variant === 'deployed',
    chunkNames: 'chunks/[name]-[hash]',
    minify: true,
    // Stack traces need file and line, not the sources: the .map files stay beside the code (not
    // counted in the sizes: nothing reads them at import).
    sourcemap: true,
    sourcesContent: false,
    metafile: true,
    logLevel: 'error',
  };
}

export interface BundleSizes {
  /** index.mjs and every chunk it imports statically: what a cold start reads and evaluates. */
  coldStartBytes: number;
  /** Every .mjs of the asset, the lazily imported chunks included. */
  totalBytes: number;
}

/** The sizes of a build's output from its metafile (source maps not counted: never loaded at import). */
export function bundleSizes(metafile: Metafile): BundleSizes {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((path) => path === ENTRY_FILE || path.endsWith(`/${ENTRY_FILE}`));
  let totalBytes = 0;
  for (const [path, output] of Object.entries(outputs)) if (path.endsWith('.mjs')) totalBytes += output.bytes;
  const seen = new Set<string>();
  const pending = entry ? [entry] : [];
  let coldStartBytes = 0;
  while (pending.length > 0) {
    const path = pending.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    const output = outputs[path];
    if (!output) continue;
    coldStartBytes += output.bytes;
    for (const imported of output.imports) {
      if (imported.kind === 'import-statement' && !imported.external) pending.push(imported.path);
    }
  }
  return { coldStartBytes, totalBytes };
}

export interface LambdaEntry {
  /** Construct id and bench label. */
  name: string;
  entry: string;
  kind: 'http' | 'ws' | 'queue' | 'stream' | 'scheduled' | 'trigger';
}

/**
 * Every Lambda the stack deploys, derived from the shared declarations (routes.ts, message-queues.ts,
 * table-streams.ts, jobs.ts, cognito-triggers.ts).
 */
export function lambdaEntries(): LambdaEntry[] {
  const entries: LambdaEntry[] = httpFunctions.map((fn) => ({ name: fn, entry: httpEntry(fn), kind: 'http' }));
  if (wsRouteKeys.length > 0) entries.push({ name: 'realtime', entry: wsEntry(), kind: 'ws' });
  for (const queue of messageQueues) {
    if (queue.consumer) entries.push({ name: queue.consumer, entry: consumerEntry(queue.consumer), kind: 'queue' });
  }
  for (const consumer of tableStreamConsumers) entries.push({ name: consumer.name, entry: streamEntry(consumer.name), kind: 'stream' });
  for (const schedule of jobs) entries.push({ name: schedule.name, entry: jobEntry(schedule.name), kind: 'scheduled' });
  for (const trigger of cognitoTriggers) entries.push({ name: trigger.name, entry: triggerEntry(trigger.name), kind: 'trigger' });
  return entries;
}
