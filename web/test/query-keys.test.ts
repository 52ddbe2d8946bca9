/**
 * One name per query key (STYLE 7, issue 11): every key in web/src comes from a key factory, each
 * root is declared by one file only, and the shared lookups' roots (queues, connections, contacts,
 * users, tags, quick messages) are declared in src/lib/lookups, where every feature and the realtime
 * bridge take them from. A key typed as a literal in a second place would silently miss the
 * invalidations realtime makes; this test names each one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');
const LOOKUPS = join('lib', 'lookups');
const SHARED_ROOTS = ['queues', 'connections', 'contacts', 'users', 'tags', 'quickMessages'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const lineOf = (source: string, index: number) => source.slice(0, index).split('\n').length;

/** `queryKey: [...]` and QueryClient calls given an array literal: a key spelled where it is used. */
const LITERAL_KEY =
  /queryKey:\s*\[|\b(?:setQueryData|setQueriesData|getQueryData|getQueriesData|getQueryState|removeQueries|invalidateQueries|refetchQueries|cancelQueries|resetQueries)(?:<[^>]*>)?\(\s*\[/g;

function literalKeys(file: string, source: string): string[] {
  return [...source.matchAll(LITERAL_KEY)].map((match) => `${file}:${lineOf(source, match.index)}: ${match[0]}`);
}

/** A key factory (`export const xKeys = {...}`) or a single key (`export const xKey = ...`), and its root string. */
const FACTORY = /export const (\w+Keys?) = (\{[\s\S]*?\n\};|[^\n]*;)/g;

function declaredRoots(file: string, source: string): Array<{ root: string; where: string }> {
  return [...source.matchAll(FACTORY)].flatMap((match) => {
    const root = /\[\s*'([^']+)'/.exec(match[2] ?? '')?.[1];
    return root ? [{ root, where: `${file} (${match[1]})` }] : [];
  });
}

const sources = () => sourceFiles(SRC).map((path) => ({ file: relative(SRC, path), source: readFileSync(path, 'utf8') }));

describe('query keys come from key factories', () => {
  it('sees a key typed in place, and not one taken from a factory', () => {
    const source = [
      "useQuery({ queryKey: ['queues', 'list'] as const, queryFn });",
      "useQuery({ queryKey: [...tagsKey, 'page'], queryFn });",
      "queryClient.invalidateQueries({ queryKey: ['users'] });",
      "queryClient.setQueryData<Contact>(['contacts', 'detail', 1], contact);",
      'useQuery({ ...queuesQueryOptions(), enabled });',
      'queryClient.invalidateQueries({ queryKey: userKeys.all });',
      'queryClient.setQueryData(contactKeys.detail(1), contact);',
    ].join('\n');
    expect(literalKeys('probe.ts', source)).toEqual([
      'probe.ts:1: queryKey: [',
      'probe.ts:2: queryKey: [',
      'probe.ts:3: queryKey: [',
      'probe.ts:4: setQueryData<Contact>([',
    ]);
  });

  it('no file in web/src types a query key in place', () => {
    const found = sources().flatMap(({ file, source }) => literalKeys(file, source));
    expect(found).toEqual([]);
  });

  it('reads the root of a factory or a single key', () => {
    const source = [
      'export const queueKeys = {',
      "  all: ['queues'] as const,",
      "  list: () => [...queueKeys.all, 'list'] as const,",
      '};',
      "export const messagesKey = ['messages'] as const;",
    ].join('\n');
    expect(declaredRoots('probe.ts', source).map((r) => r.root)).toEqual(['queues', 'messages']);
  });

  it('each root is declared once, and the shared lookups are declared in src/lib/lookups', () => {
    const roots = sources().flatMap(({ file, source }) => declaredRoots(file, source));
    const byRoot = new Map<string, string[]>();
    for (const { root, where } of roots) byRoot.set(root, [...(byRoot.get(root) ?? []), where]);

    expect([...byRoot].filter(([, where]) => where.length > 1)).toEqual([]);
    for (const root of SHARED_ROOTS) {
      const where = byRoot.get(root) ?? [];
      expect(where, root).toHaveLength(1);
      expect(where[0]?.startsWith(`${LOOKUPS}${sep}`), `${root}: ${where[0]}`).toBe(true);
    }
  });
});
