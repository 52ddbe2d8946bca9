/**
 * The session-host image carries the product and nothing of the local stack: the build context that
 * `cdk deploy` stages (session-host/Dockerfile.dockerignore, applied with CDK's own Docker ignore
 * rules) holds the host's sources and no WhatsApp simulator (network, server, page), and no file of
 * session-host/src imports the local stack, so the bundle cannot pull a stand-in in either.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { IgnoreStrategy } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../lib/paths.ts';
import { sessionHostContextExcludes } from '../lib/session-host-service.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && !entry.parentPath.includes('node_modules'))
    .map((entry) => relative(repoRoot, join(entry.parentPath, entry.name)));
}

describe('session-host image', () => {
  const ignore = IgnoreStrategy.docker(repoRoot, sessionHostContextExcludes());
  const staged = ['session-host', 'infra'].flatMap(filesUnder).filter((file) => !ignore.ignores(join(repoRoot, file)));

  it('stages the host and its simulator provider', () => {
    expect(staged).toEqual(
      expect.arrayContaining([
        'session-host/src/main.ts',
        'session-host/src/providers/simulator.ts',
        'session-host/src/providers/simulator-protocol.ts',
      ]),
    );
  });

  it('stages nothing of the local stack: no simulated network, server or page', () => {
    expect(staged.filter((file) => file.startsWith('infra/'))).toEqual(['infra/package.json']);
    expect(staged.filter((file) => /simulator\/|whatsapp-simulator/.test(file))).toEqual([]);
  });

  it('no product file of the session-host imports the local stack', () => {
    const offenders = filesUnder('session-host/src')
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /from ['"](?:[./]*\/)?(?:@conversa\/infra|infra\/)/.test(readFileSync(join(repoRoot, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
