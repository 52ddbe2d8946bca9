/**
 * Makes sure DynamoDB Local (AWS's own emulator, a Java jar) is unpacked under .data/dynamodb-local.
 *
 * The jar ships inside the npm package `amplify-dynamodb-simulator`. Installing that package as a
 * dependency would pull in the Amplify CLI core and a second aws-cdk-lib, so we fetch only its tarball
 * from the npm registry with `npm pack` and keep its `emulator/` folder.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'amplify-dynamodb-simulator@2.9.30';
const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');
export const dynamoDbLocalDir = join(repoRoot, '.data', 'dynamodb-local');
export const dynamoDbLocalJar = join(dynamoDbLocalDir, 'DynamoDBLocal.jar');

export function ensureDynamoDbLocalJar(): string {
  if (existsSync(dynamoDbLocalJar)) return dynamoDbLocalDir;
  const work = join(repoRoot, '.data', 'tmp-dynamodb-pack');
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  process.stdout.write(`Fetching DynamoDB Local (${PACKAGE}) from the npm registry...\n`);
  execFileSync('npm', ['pack', PACKAGE, '--silent', '--pack-destination', work], { stdio: ['ignore', 'ignore', 'inherit'] });
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  if (!tarball) throw new Error(`npm pack ${PACKAGE} produced no tarball`);
  execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/emulator']);
  rmSync(dynamoDbLocalDir, { recursive: true, force: true });
  renameSync(join(work, 'package', 'emulator'), dynamoDbLocalDir);
  rmSync(work, { recursive: true, force: true });
  return dynamoDbLocalDir;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  ensureDynamoDbLocalJar();
}
