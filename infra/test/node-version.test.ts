/**
 * The code is tested on the Node it deploys on: the Lambda runtime and the session-host image are
 * Node 22, and `npm test` runs under the Node 22 that the root's `node` dev dependency installs
 * (npm puts node_modules/.bin first on a script's PATH), whatever Node runs npm itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAMBDA_NODE_TARGET } from '../lib/bundling.ts';
import { LAMBDA_RUNTIME } from '../lib/lambda-function.ts';
import { repoRoot } from '../lib/paths.ts';

const deployedMajor = /^nodejs(\d+)\.x$/.exec(LAMBDA_RUNTIME.name)?.[1];

describe('one Node version from tests to deploy', () => {
  it('runs the tests on the Lambda runtime’s major version', () => {
    expect(deployedMajor).toBeDefined();
    expect(process.versions.node.split('.')[0]).toBe(deployedMajor);
  });

  it('bundles for that version and builds the session-host image on it', () => {
    expect(LAMBDA_NODE_TARGET).toBe(`node${deployedMajor}`);
    const dockerfile = readFileSync(join(repoRoot, 'session-host', 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(new RegExp(`NODE_IMAGE=node:${deployedMajor}-`));
    const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
    expect(rootPackage.devDependencies.node?.split('.')[0]).toBe(deployedMajor);
  });
});
