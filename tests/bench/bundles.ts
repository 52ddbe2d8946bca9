/**
 * Bundle bench: bundles every Lambda entry exactly as the CDK stack does (same esbuild options,
 * from infra/lib/bundling.ts), prints what each one's cold start loads (index.mjs and its static
 * chunks, minified), the whole asset's JS and the cold import time (a fresh `node` process per
 * bundle, median of a few), and exits non-zero when a cold start would load more than 500 KB.
 *
 * `--compare` also builds each Lambda as one file with the AWS SDK left to the runtime
 * (sdk-external) and as one file with the SDK bundled (sdk-bundled), and times the three side by
 * side in one run (imports interleaved, so a busy machine slows them alike): the figures behind
 * the deployed choice (bundling.ts).
 *
 *   npx tsx tests/bench/bundles.ts [--compare]      (npm run bench:bundles)
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type BundleSizes,
  type BundleVariant,
  bundleSizes,
  ENTRY_FILE,
  type LambdaEntry,
  lambdaBuildOptions,
  lambdaEntries,
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

interface Built extends BundleSizes {
  file: string;
}

async function bundle(entry: LambdaEntry, variant: BundleVariant = 'deployed'): Promise<Built> {
  const outdir = join(outRoot, variant, entry.name);
  const result = await build(lambdaBuildOptions(entry.entry, outdir, variant));
  return { file: join(outdir, ENTRY_FILE), ...bundleSizes(result.metafile ?? { inputs: {}, outputs: {} }) };
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

const variants: BundleVariant[] = ['sdk-external', 'sdk-bundled', 'deployed'];

/** The three variants per Lambda, imports interleaved (external, bundled, deployed, external, ...) in one run. */
async function compare(): Promise<void> {
  const rows: Record<string, string | number>[] = [];
  const totals = new Map<BundleVariant, number[]>(variants.map((variant) => [variant, []]));
  for (const entry of lambdaEntries()) {
    const built = new Map<BundleVariant, Built>();
    for (const variant of variants) built.set(variant, await bundle(entry, variant));
    const times = new Map<BundleVariant, number[]>(variants.map((variant) => [variant, []]));
    for (let run = 0; run < IMPORT_RUNS; run++) {
      for (const variant of variants) times.get(variant)?.push(coldImportMs((built.get(variant) as Built).file));
    }
    const row: Record<string, string | number> = { lambda: entry.name };
    for (const variant of variants) {
      const ms = median(times.get(variant) as number[]);
      totals.get(variant)?.push(ms);
      row[`${variant} KB`] = kb((built.get(variant) as Built).coldStartBytes);
      row[`${variant} ms`] = Math.round(ms);
    }
    rows.push(row);
  }
  console.table(rows);
  console.log(
    `median cold import over all Lambdas: ${variants.map((variant) => `${variant} ${Math.round(median(totals.get(variant) as number[]))} ms`).join(', ')}`,
  );
}

async function main(): Promise<number> {
  rmSync(outRoot, { recursive: true, force: true });
  mkdirSync(outRoot, { recursive: true });
  if (process.argv.includes('--compare')) await compare();
  const rows: { lambda: string; 'cold start KB': number; 'asset KB': number; 'cold import ms': number; 'under 500 KB': string }[] = [];
  for (const entry of lambdaEntries()) {
    const built = await bundle(entry);
    const ms = median(Array.from({ length: IMPORT_RUNS }, () => coldImportMs(built.file)));
    rows.push({
      lambda: entry.name,
      'cold start KB': kb(built.coldStartBytes),
      'asset KB': kb(built.totalBytes),
      'cold import ms': Math.round(ms),
      'under 500 KB': built.coldStartBytes <= MAX_BUNDLE_BYTES ? 'yes' : 'NO',
    });
  }
  console.table(rows);
  console.log(`median cold import over all Lambdas: ${Math.round(median(rows.map((row) => row['cold import ms'])))} ms`);
  const over = rows.filter((row) => row['under 500 KB'] === 'NO');
  if (over.length > 0) {
    console.error(`A cold start loads over ${MAX_BUNDLE_BYTES / 1024} KB minified: ${over.map((row) => row.lambda).join(', ')}`);
    return 1;
  }
  return 0;
}

process.exitCode = await main();
