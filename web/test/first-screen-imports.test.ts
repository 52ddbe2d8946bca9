/**
 * The first screen stays light (issue 11: first screen JS <= 300 KB gzipped, `npm run bench:web`):
 * zod is a tenth of it, and came back once because the shell's modules took plain values from the
 * contracts barrel, which builds every schema. This test walks the modules the entry loads
 * statically (lazy routes and other dynamic imports are where zod may load) and fails on any that
 * reaches zod: a value import from the barrel, or a contracts module that imports zod.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const WEB = resolve(import.meta.dirname, '..');
const CONTRACTS = resolve(WEB, '../functions/src/contracts');
const ENTRY = resolve(WEB, 'src/main.tsx');
const BARREL = '@conversa/functions/contracts';

/** Static imports with their specifier; `import type` and `export type` lines are left out. */
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s*)?['"]([^'"]+)['"]/gm;

function resolveImport(from: string, specifier: string): string | undefined {
  let base: string | undefined;
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else if (specifier === BARREL) base = resolve(CONTRACTS, 'index.ts');
  else if (specifier.startsWith(`${BARREL}/`)) base = resolve(CONTRACTS, specifier.slice(BARREL.length + 1));
  if (!base) return undefined;
  return [`${base}.ts`, `${base}.tsx`, base].find((candidate) => existsSync(candidate) && /\.tsx?$/.test(candidate));
}

/** Every module the entry loads before any dynamic import, and the ones in it that import zod. */
function firstScreen(): { modules: string[]; zod: string[] } {
  const seen = new Set<string>();
  const zod: string[] = [];
  const queue = [ENTRY];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(STATIC_IMPORT)) {
      if (specifier === 'zod' || specifier?.startsWith('zod/')) zod.push(relative(WEB, file));
      const target = specifier ? resolveImport(file, specifier) : undefined;
      if (target) queue.push(target);
    }
  }
  return { modules: [...seen].map((file) => relative(WEB, file)), zod };
}

describe('the first screen', () => {
  it('loads no zod: the shell takes contract values from zod-free modules', () => {
    const { modules, zod } = firstScreen();
    expect(modules).toEqual(expect.arrayContaining(['src/app/app.tsx', 'src/app/routes/router.tsx', 'src/lib/api-client.ts']));
    expect(zod).toEqual([]);
  });
});
