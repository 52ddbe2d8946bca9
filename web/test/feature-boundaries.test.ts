/**
 * Feature folders do not import each other (STYLE: "no imports across features"): what two features
 * share lives in src/lib, src/components or src/hooks, and only the app shell (src/app) puts features
 * together. Biome's noRestrictedImports matches the import's text, not the file it resolves to, so
 * it cannot tell `../../../contacts/api/x.ts` written in features/tickets from one of tickets' own
 * folders; this test resolves every relative import (static, re-export, dynamic) and names each
 * import that lands in another feature.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, sourceFiles } from '../../tests/support/source-imports.ts';

const FEATURES = resolve(import.meta.dirname, '../src/features');

/** `<file> -> <specifier>` pairs allowed to cross, each with its reason. None today. */
const ALLOWED = new Set<string>([]);

const featureOf = (file: string): string | undefined => {
  const inside = relative(FEATURES, file);
  return inside.startsWith('..') ? undefined : inside.split(sep)[0];
};

/** The imports of `source` (written in `file`) that resolve into a feature other than the file's own. */
function crossFeatureImports(file: string, source: string): string[] {
  const own = featureOf(file);
  const crossings: string[] = [];
  for (const specifier of importSpecifiers(source)) {
    if (!specifier.startsWith('.')) continue;
    const target = featureOf(resolve(dirname(file), specifier));
    if (target && target !== own) crossings.push(`${relative(FEATURES, file)} -> ${specifier}`);
  }
  return crossings;
}

describe('web feature boundaries', () => {
  it('sees an import into another feature, static or dynamic, and not one inside the same feature', () => {
    const file = join(FEATURES, 'tickets/components/conversation/contact-drawer.tsx');
    const source = [
      "import { contactsQuery } from '../../../contacts/api/contacts.ts';",
      "export { x } from '../../../tags/api/tags.ts';",
      "const page = () => import('../../../users/components/users-page.tsx');",
      "import { ticketQuery } from '../../api/tickets.ts';",
      "import { apiClient } from '../../../../lib/api-client.ts';",
      "import { useQuery } from '@tanstack/react-query';",
    ].join('\n');
    expect(crossFeatureImports(file, source)).toEqual([
      'tickets/components/conversation/contact-drawer.tsx -> ../../../contacts/api/contacts.ts',
      'tickets/components/conversation/contact-drawer.tsx -> ../../../tags/api/tags.ts',
      'tickets/components/conversation/contact-drawer.tsx -> ../../../users/components/users-page.tsx',
    ]);
  });

  it('no feature imports another feature', () => {
    const files = sourceFiles(FEATURES);
    expect(files.length).toBeGreaterThan(0);
    const crossings = files.flatMap((file) => crossFeatureImports(file, readFileSync(file, 'utf8'))).filter((c) => !ALLOWED.has(c));
    expect(crossings).toEqual([]);
  });
});
