/**
 * The deployed bundles (infra/lib/bundling.ts): the AWS SDK bundled, code split, and what a cold
 * start loads under 500 KB. The two heaviest Lambdas are built as the stack builds them: `messages`
 * (DynamoDB, SQS, the socket API, and the media bucket's S3 client and presigner) and
 * `contacts-import` (the spreadsheet reader). Both passed 500 KB with the SDK in one file; their S3
 * and SheetJS code is now behind `await import()`, in chunks a cold start does not load; so is busboy,
 * which pushed `external-api` (JSON sends far more often than multipart ones) past 500 KB; and so are
 * Cognito (users, companies) and TOTP (auth), which took those two to the line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleSizes, lambdaBuildOptions, lambdaEntries, MAX_BUNDLE_BYTES } from '../lib/bundling.ts';

const outRoot = mkdtempSync(join(tmpdir(), 'conversa-bundles-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

/** The source files (under node_modules or functions/src) that a cold start evaluates. */
function coldStartInputs(metafile: Metafile): string[] {
  const outputs = metafile.outputs;
  const entry = Object.keys(outputs).find((path) => path.endsWith('/index.mjs')) as string;
  const seen = new Set<string>();
  const pending = [entry];
  while (pending.length) {
    const path = pending.pop() as string;
    if (seen.has(path)) continue;
    seen.add(path);
    for (const imported of outputs[path]?.imports ?? []) if (imported.kind === 'import-statement') pending.push(imported.path);
  }
  return [...seen].flatMap((path) => Object.keys(outputs[path]?.inputs ?? {}));
}

type Built = { sizes: ReturnType<typeof bundleSizes>; coldStart: string[] };

/** Every Lambda the stack deploys, each built once as the stack builds it (the tests below read them). */
const builds = new Map<string, Built>();
beforeAll(async () => {
  for (const { name, entry } of lambdaEntries()) {
    const result = await build(lambdaBuildOptions(entry, join(outRoot, name)));
    const metafile = result.metafile as Metafile;
    builds.set(name, { sizes: bundleSizes(metafile), coldStart: coldStartInputs(metafile) });
  }
}, 300_000);

function built(fn: string): Built {
  const found = builds.get(fn);
  if (!found) throw new Error(`${fn} is not a Lambda the stack deploys`);
  return found;
}

describe('deployed bundles', () => {
  it('messages: the SDK inside, S3 and its presigner in a lazily loaded chunk, a cold start under 500 KB', () => {
    const { sizes, coldStart } = built('messages');
    expect(coldStart.some((path) => path.includes('node_modules/@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(coldStart.filter((path) => /@aws-sdk\/(client-s3|s3-request-presigner)\//.test(path))).toEqual([]);
    expect(sizes.coldStartBytes).toBeLessThan(MAX_BUNDLE_BYTES);
    expect(sizes.totalBytes).toBeGreaterThan(sizes.coldStartBytes);
  });

  it('external-api: the multipart parser (busboy) in a lazily loaded chunk, a cold start under 500 KB', () => {
    const { sizes, coldStart } = built('external-api');
    expect(coldStart.filter((path) => path.includes('node_modules/busboy/'))).toEqual([]);
    expect(sizes.coldStartBytes).toBeLessThan(MAX_BUNDLE_BYTES);
  });

  it('contacts-import: the spreadsheet reader in a lazily loaded chunk, a cold start under 500 KB', () => {
    const { sizes, coldStart } = built('contacts-import');
    expect(coldStart.filter((path) => path.includes('@e965/xlsx'))).toEqual([]);
    expect(sizes.coldStartBytes).toBeLessThan(MAX_BUNDLE_BYTES);
  });

  // users stood at 499.4 KB and auth at 494.4 (issue 24): listing users and signing in without MFA
  // never call Cognito's admin API or TOTP, so neither loads with the Lambda.
  it('users and companies: Cognito in a lazily loaded chunk; auth: the admin calls and TOTP (otplib) in lazy chunks', () => {
    for (const name of ['users', 'companies']) {
      const { coldStart } = built(name);
      expect(
        coldStart.filter((path) => /@aws-sdk\/client-cognito-identity-provider\/|adapters\/cognito-(users|auth)\.ts/.test(path)),
      ).toEqual([]);
    }
    const auth = built('auth').coldStart;
    expect(auth.some((path) => path.endsWith('adapters/cognito-auth.ts'))).toBe(true);
    expect(auth.filter((path) => path.endsWith('adapters/cognito-users.ts') || path.includes('node_modules/otplib/'))).toEqual([]);
  });

  // auth, users and companies passed 500 KB unnoticed while only the three above were built here (the
  // bench said so): every Lambda the stack deploys is held to it, in one pass.
  it('every Lambda the stack deploys has a cold start under 500 KB', () => {
    const over = [...builds]
      .filter(([, { sizes }]) => sizes.coldStartBytes >= MAX_BUNDLE_BYTES)
      .map(([name, { sizes }]) => `${name}: ${(sizes.coldStartBytes / 1024).toFixed(1)} KB`);
    expect(builds.size).toBe(lambdaEntries().length);
    expect(over).toEqual([]);
  });
});
