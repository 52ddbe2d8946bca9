/**
 * Bundle bench: bundles every Lambda entry exactly as the CDK stack does (same esbuild options,
 * from infra/lib/bundling.ts), prints each bundle's minified size and its cold import time (a fresh
 * `node` process per bundle, median of a few), and exits non-zero when a deployed bundle passes 500 KB.
 *
 * `--compare` also builds each Lambda with the AWS SDK bundled and tree-shaken instead of left to
 * the runtime, and times both side by side in one run (imports interleaved, so a busy machine slows
 * both alike): the figures behind EXTERNAL_MODULES.
 *
 *   npx tsx tests/bench/bundles.ts [--compare]      (npm run bench:bundles)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ESM_REQUIRE_BANNER,
  EXTERNAL_MODULES,
  LAMBDA_NODE_TARGET,
  type LambdaEntry,
  lambdaEntries,
  MAIN_FIELDS,
  MAX_BUNDLE_BYTES,
} from '@conversa/infra/lib/bundling.ts';
import { repoRoot } from '@conversa/infra/lib/paths.ts';
import { build } from 'esbuild';

const IMPORT_RUNS = 3;
// Inside the repo so the external AWS SDK resolves from node_modules, as it does from the Lambda runtime.
const outRoot = join(repoRoot, 'tests/artifacts/bundles');

/** Placeholders for what the stack sets, in case a module reads its environment at import. */
const lambdaEnv = {
  ...process.env,
  AWS_REGION: 'us-east-1',
  TABLE_NAME: 'bench',
  USER_POOL_ID: 'us-east-1_bench',
  USER_POOL_CLIENT_ID: 'bench',
  WS_MANAGEMENT_URL: 'https://bench.execute-api.us-east-1.amazonaws.com/prod',
  MEDIA_BUCKET: 'bench',
  POWERTOOLS_SERVICE_NAME: 'conversa',
  NODE_OPTIONS: '',
};

type Variant = 'sdk-external' | 'sdk-bundled';

async function bundle(entry: LambdaEntry, variant: Variant = 'sdk-external'): Promise<string> {
  const outfile = join(outRoot, variant, entry.name, 'index.mjs');
  await build({
    entryPoints: [entry.entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: LAMBDA_NODE_TARGET,
    banner: { js: ESM_REQUIRE_BANNER },
    mainFields: MAIN_FIELDS,
    external: variant === 'sdk-external' ? EXTERNAL_MODULES : [],
    minify: true,
    sourcemap: true,
    sourcesContent: false,
    logLevel: 'error',
  });
  return outfile;
}

/** Milliseconds to import the bundle in a fresh process (module graph load and top-level code). */
function coldImportMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: lambdaEnv, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`Importing ${file} failed:\n${result.stderr}`);
  return Number(result.stdout.trim());
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const kb = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;

/** Both variants per Lambda, imports interleaved (external, bundled, external, ...) in one run. */
async function compare(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const totals = { external: [] as number[], bundled: [] as number[] };
  for (const entry of lambdaEntries()) {
    const external = await bundle(entry, 'sdk-external');
    const bundled = await bundle(entry, 'sdk-bundled');
    const times = { external: [] as number[], bundled: [] as number[] };
    for (let run = 0; run < IMPORT_RUNS; run++) {
      times.external.push(coldImportMs(external));
      times.bundled.push(coldImportMs(bundled));
    }
    totals.external.push(median(times.external));
    totals.bundled.push(median(times.bundled));
    rows.push({
      lambda: entry.name,
      'external KB': kb(statSync(external).size),
      'external ms': Math.round(median(times.external)),
      'bundled KB': kb(statSync(bundled).size),
      'bundled ms': Math.round(median(times.bundled)),
    });
  }
  console.table(rows);
  console.log(
    `median cold import over all Lambdas: SDK external ${Math.round(median(totals.external))} ms, SDK bundled ${Math.round(median(totals.bundled))} ms`,
  );
}

async function main(): Promise<number> {
  rmSync(outRoot, { recursive: true, force: true });
  mkdirSync(outRoot, { recursive: true });
  if (process.argv.includes('--compare')) await compare();
  const rows: { lambda: string; 'size KB': number; 'cold import ms': number; 'under 500 KB': string }[] = [];
  for (const entry of lambdaEntries()) {
    const file = await bundle(entry);
    const bytes = statSync(file).size;
    const ms = median(Array.from({ length: IMPORT_RUNS }, () => coldImportMs(file)));
    rows.push({
      lambda: entry.name,
      'size KB': Math.round((bytes / 1024) * 10) / 10,
      'cold import ms': Math.round(ms),
      'under 500 KB': bytes <= MAX_BUNDLE_BYTES ? 'yes' : 'NO',
    });
  }
  console.table(rows);
  console.log(`median cold import over all Lambdas: ${Math.round(median(rows.map((row) => row['cold import ms'])))} ms`);
  const over = rows.filter((row) => row['under 500 KB'] === 'NO');
  if (over.length > 0) {
    console.error(`Over ${MAX_BUNDLE_BYTES / 1024} KB minified: ${over.map((row) => row.lambda).join(', ')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
