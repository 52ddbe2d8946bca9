/**
 * The direction of the layers (STYLE: adapter -> use case -> domain -> repository): the domain
 * imports no AWS SDK, no HTTP layer, no handler, and no adapter. The last was broken as the house
 * grew ("what to mend": the domain should declare the port it needs, the adapter implement it, the
 * handler wire the two); the files still importing an adapter are listed here, each with the adapters
 * it names, so the list can only shrink: a new import fails, and a mended file must leave the list.
 */
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSpecifiers, sourceFiles } from '../../tests/support/source-imports.ts';

const DOMAIN = resolve(import.meta.dirname, '../src/domain');

/** Never, anywhere in the domain. */
const FORBIDDEN = [/^@aws-sdk\//, /^#http\//, /^#handlers\//, /\/(http|handlers)\//];

/** Still importing adapters, to be mended one port at a time (33 files in session 27; bots/queue.ts mended first, then campaigns' clock). */
const NOT_YET_MENDED = new Map<string, string[]>([
  ['announcements/announcements.ts', ['media-bucket']],
  ['auth/auth-service.ts', ['cognito-auth']],
  ['auth/session.ts', ['cognito-lazy']],
  ['bots/answers.ts', ['openai']],
  ['bots/clients.ts', ['bot-webhook', 'dialogflow', 'media-bucket', 'openai', 'typebot']],
  ['campaigns/media.ts', ['media-bucket']],
  ['companies/companies.ts', ['cognito-lazy', 'media-bucket']],
  ['companies/data-export.ts', ['company-exports', 'media-bucket']],
  ['companies/export-build.ts', ['media-bucket']],
  ['connections/connections.ts', ['session-commands']],
  ['connections/sessions.ts', ['session-commands']],
  ['contacts/data-export.ts', ['media-bucket']],
  ['contacts/erase.ts', ['media-bucket']],
  ['contacts/phone-import-request.ts', ['session-commands']],
  ['file-lists/file-lists.ts', ['media-bucket']],
  ['media/access.ts', ['media-bucket']],
  ['media/attachments.ts', ['media-bucket']],
  ['media/serve.ts', ['media-bucket']],
  ['messages/effects.ts', ['session-commands']],
  ['outbound/attendant.ts', ['media-bucket']],
  ['outbound/send.ts', ['media-bucket']],
  ['queue-integrations/test-session.ts', ['dialogflow', 'provider-error']],
  ['quick-messages/quick-messages.ts', ['media-bucket']],
  ['schedules/schedules.ts', ['media-bucket']],
  ['sweeps/retention.ts', ['media-bucket']],
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
