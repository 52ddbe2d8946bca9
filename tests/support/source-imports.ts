/**
 * What the layer and feature boundary tests read: the source files under a folder and each file's
 * import specifiers (static, re-exported, dynamic), as written.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g;

/** Every `.ts`/`.tsx` file under `dir`, at any depth. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The specifiers `source` imports from. */
export const importSpecifiers = (source: string): string[] => [...source.matchAll(IMPORT)].map((match) => match[1] as string);

/** A whole `import type ... from` or `export type ... from` statement: gone once compiled. */
const TYPE_ONLY = /\b(?:import|export)\s+type\s+[^;]*?\bfrom\s*['"][^'"]+['"]/g;

/** The specifiers `source` loads at run time: `importSpecifiers` without the type-only statements. */
export const runtimeImportSpecifiers = (source: string): string[] => importSpecifiers(source.replace(TYPE_ONLY, ''));
