/**
 * The direction of the layers (STYLE: adapter -> use case -> domain -> repository): the domain
 * imports no AWS SDK, no HTTP layer, no handler, and no adapter. The last was broken as the house
 * grew ("what to mend": the domain should declare the port it needs, the adapter implement it, the
 * handler wire the two); the files still importing an adapter are listed here, each with the adapters
 * it names, so the list can only shrink: a new import fails, and a mended file must leave the list.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, runtimeImportSpecifiers, sourceFiles } from '../../tests/support/source-imports.ts';

const SRC = resolve(import.meta.dirname, '../src');
const DOMAIN = resolve(SRC, 'domain');

/** Never, anywhere in the domain. */
const FORBIDDEN = [/^@aws-sdk\//, /^#http\//, /^#handlers\//, /\/(http|handlers)\//];

/** Still importing adapters, to be mended one port at a time (33 files in session 27; mended since: bots/queue.ts, campaigns' clock, session commands, media bucket). */
const NOT_YET_MENDED = new Map<string, string[]>([
  ['auth/auth-service.ts', ['cognito-auth']],
  ['auth/session.ts', ['cognito-lazy']],
  ['bots/answers.ts', ['openai']],
  ['bots/clients.ts', ['bot-webhook', 'dialogflow', 'openai', 'typebot']],
  ['companies/companies.ts', ['cognito-lazy']],
  ['companies/data-export.ts', ['company-exports']],
  ['queue-integrations/test-session.ts', ['dialogflow', 'provider-error']],
  ['users/provision.ts', ['cognito-lazy']],
  ['users/users.ts', ['cognito-lazy']],
  ['webhooks/deliver.ts', ['webhook-post', 'webhook-queue']],
  ['webhooks/endpoints.ts', ['tenant-url-guard']],
  ['webhooks/queue-or-park.ts', ['webhook-queue']],
]);

const files = sourceFiles(DOMAIN).map((path) => ({
  name: relative(DOMAIN, path),
  imports: importSpecifiers(readFileSync(path, 'utf8')),
}));

/** The adapters a file imports, by name (`#adapters/x` or a relative path into src/adapters). */
const adaptersOf = (imports: string[]) =>
  [...new Set(imports.map((specifier) => /(?:^#adapters\/|\/adapters\/)([a-z0-9-]+)/.exec(specifier)?.[1]).filter(Boolean))].sort();

describe('the domain layer', () => {
  it('imports no AWS SDK, HTTP layer or handler', () => {
    const crossings = files.flatMap((file) =>
      file.imports.filter((specifier) => FORBIDDEN.some((rule) => rule.test(specifier))).map((specifier) => `${file.name} -> ${specifier}`),
    );
    expect(crossings).toEqual([]);
  });

  it('imports no adapter beyond the files not yet mended, and those no more than they did', () => {
    const imported = files.map((file) => [file.name, adaptersOf(file.imports)] as const).filter(([, adapters]) => adapters.length > 0);
    const found = new Map(imported);
    // A new crossing, or a listed file naming one more adapter: declare a port in the domain instead.
    for (const [name, adapters] of imported) expect(NOT_YET_MENDED.get(name) ?? [], name).toEqual(expect.arrayContaining(adapters));
    // A mended file (or one mended in part) leaves the list, so the list stays the work left.
    for (const [name, adapters] of NOT_YET_MENDED)
      expect(found.get(name) ?? [], `${name} is mended: take it off the list`).toEqual(adapters);
  });
});

/** The domain's ports: a module holding a sender no default fills (adapters/wiring.ts fills them). */
const PORTS = ['domain/bots/queue.ts', 'domain/campaigns/clock.ts', 'domain/media/bucket.ts', 'domain/messages/session-commands.ts'];
const WIRING = 'adapters/wiring.ts';

/** Our module a specifier names (a `#alias/x` of functions/package.json or a relative path), if any. */
function resolveImport(from: string, specifier: string): string | undefined {
  const alias = /^#([a-z]+)\/(.+)$/.exec(specifier);
  const path = alias
    ? resolve(SRC, alias[1] as string, `${alias[2]}.ts`)
    : specifier.startsWith('.')
      ? resolve(dirname(from), specifier)
      : undefined;
  return path && existsSync(path) ? path : undefined;
}

/** Every module of ours `entry` loads when it runs (type-only imports are not loaded), itself included. */
const reach = (entry: string): Set<string> => reachWithout(entry);

/** The same, not walking into `skipped` (a path under src). */
function reachWithout(entry: string, skipped?: string): Set<string> {
  const seen = new Set<string>(skipped ? [resolve(SRC, skipped)] : []);
  const walk = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    for (const specifier of runtimeImportSpecifiers(readFileSync(path, 'utf8'))) {
      const next = resolveImport(path, specifier);
      if (next) walk(next);
    }
  };
  walk(entry);
  if (skipped) seen.delete(resolve(SRC, skipped));
  return new Set([...seen].map((path) => relative(SRC, path)));
}

describe('the Lambda entries', () => {
  const entries = sourceFiles(resolve(SRC, 'handlers')).filter((path) =>
    /export (const|async function|function) handler\b/.test(readFileSync(path, 'utf8')),
  );

  it('are found, and the port modules exist', () => {
    expect(entries.length).toBeGreaterThan(40);
    for (const port of [...PORTS, WIRING]) expect(existsSync(resolve(SRC, port)), port).toBe(true);
  });

  it("wire the domain's ports (adapters/wiring.ts) whenever their code can reach one, and only then", () => {
    const wrong = entries.flatMap((entry) => {
      // What the entry's code reaches, the wiring and the adapters it brings aside.
      const wired = reach(entry).has(WIRING);
      const ports = PORTS.filter((port) => reachWithout(entry, WIRING).has(port));
      if (ports.length && !wired) return [`${relative(SRC, entry)} reaches ${ports.join(', ')} unwired`];
      // Wiring adds the adapters' code and their grants' need (infra/test/api.test.ts) to the bundle.
      if (!ports.length && wired) return [`${relative(SRC, entry)} wires ports it never reaches`];
      return [];
    });
    expect(wrong).toEqual([]);
  });
});
