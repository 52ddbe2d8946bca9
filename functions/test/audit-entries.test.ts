/**
 * The audit trail's writer and storage below the routes (issue 21 §3): secrets are masked at any
 * depth, an entry is stored once with its TTL a year on and its three index keys, the scope of a
 * request names the caller, a failed write never fails the act, and the CSV defuses formulas.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentClient } from '#commons/dynamodb';
import { MASKED } from '#contracts/audit';
import { auditCsv } from '#domain/audit/read';
import { auditEntryOf, changesOf, recordAudit } from '#domain/audit/record';
import { runInAuditScope } from '#domain/audit/request-scope';
import { AUDIT_RETENTION_SECONDS, listAuditEntries } from '#storage/audit/entries';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => ddb?.stop());

describe('changes', () => {
  it('keeps only changed fields and masks every secret, nested ones too', () => {
    const before = { name: 'Bot', apiKey: 'sk-old', nested: { private_key: 'PEM', client_email: 'x@y' }, same: 1 };
    const after = { name: 'Bot 2', apiKey: 'sk-new', nested: { private_key: 'PEM2', client_email: 'x@y' }, same: 1, token: 'tok' };
    expect(changesOf(before, after)).toEqual({
      name: { from: 'Bot', to: 'Bot 2' },
      apiKey: { from: MASKED, to: MASKED },
      nested: { from: { private_key: MASKED, client_email: 'x@y' }, to: { private_key: MASKED, client_email: 'x@y' } },
      token: { from: null, to: MASKED },
    });
    expect(JSON.stringify(changesOf({ password: 'a', voiceKey: 'b', secret: 'c' }, {}))).not.toMatch(/"(a|b|c)"/);
  });
});

describe('entries', () => {
  it('stores one immutable item with its TTL a year on, indexed by user, action and target type', async () => {
    const now = new Date('2026-06-01T10:00:00.000Z');
    await runInAuditScope({ ip: '203.0.113.1', userAgent: 'UA', actor: { companyId: 77, userId: 5, userName: 'Ana' } }, () =>
      recordAudit({ action: 'queue.create', targetType: 'queue', targetId: 9, now }),
    );
    const [entry] = await listAuditEntries({ companyId: 77 }, 10);
    expect(entry).toMatchObject({ companyId: 77, userId: 5, userName: 'Ana', ip: '203.0.113.1', userAgent: 'UA', targetId: '9' });
    const raw = await documentClient().send(
      new GetCommand({ TableName: ddb.tableName, Key: { pk: 'C#77#AUDIT', sk: `${entry?.createdAt}#${entry?.id}` } }),
    );
    expect(raw.Item?.expiresAt).toBe(Date.parse('2026-06-01T10:00:00.000Z') / 1000 + AUDIT_RETENTION_SECONDS);
    expect(raw.Item).toMatchObject({ gsi1pk: 'C#77#AUDIT#U#5', gsi2pk: 'C#77#AUDIT#A#queue.create', gsi3pk: 'C#77#AUDIT#T#queue' });
    // Every filter combination reads from its index and finds it; another company's never does.
    expect(await listAuditEntries({ companyId: 77, userId: 5, action: 'queue.create', targetType: 'queue' }, 10)).toHaveLength(1);
    expect(await listAuditEntries({ companyId: 77, action: 'queue.create', targetType: 'user' }, 10)).toHaveLength(0);
    expect(await listAuditEntries({ companyId: 78 }, 10)).toHaveLength(0);
  });

  it('never fails the act it records: with no company or a failed write it logs and returns', async () => {
    expect(auditEntryOf({ action: 'plan.create', targetType: 'plan' })).toBeUndefined();
    await expect(recordAudit({ action: 'plan.create', targetType: 'plan' })).resolves.toBeUndefined();
    const table = process.env.TABLE_NAME;
    process.env.TABLE_NAME = 'no-such-table';
    try {
      await expect(recordAudit({ companyId: 77, action: 'plan.create', targetType: 'plan' })).resolves.toBeUndefined();
    } finally {
      process.env.TABLE_NAME = table;
    }
  });
});

describe('CSV', () => {
  it('stops a row short of the size a response may carry, newest rows kept, and says so', () => {
    const entry = (id: string) => ({
      id,
      createdAt: '2026-06-01T10:00:00.000Z',
      companyId: 1,
      userId: 2,
      userName: 'Ana',
      action: 'user.update' as const,
      targetType: 'user' as const,
      targetId: id,
      changes: {},
      ip: null,
      userAgent: 'x'.repeat(100),
    });
    const whole = auditCsv([entry('1'), entry('2')]);
    const cut = auditCsv([entry('1'), entry('2')], Buffer.byteLength(whole.csv) - 10);
    expect(whole.truncated).toBe(false);
    expect(cut.truncated).toBe(true);
    expect(cut.csv.trim().split('\r\n')).toHaveLength(2);
    expect(cut.csv).toContain(';1;');
  });

  it('quotes separators and defuses a cell a spreadsheet would run as a formula', () => {
    const csv = auditCsv([
      {
        id: 'x',
        createdAt: '2026-06-01T10:00:00.000Z',
        companyId: 1,
        userId: 2,
        userName: '=HYPERLINK("http://evil")',
        action: 'user.update',
        targetType: 'user',
        targetId: '3',
        changes: { name: { from: 'a;b', to: '@SUM(1)' } },
        ip: null,
        userAgent: '-2+3',
      },
    ]);
    expect(csv.truncated).toBe(false);
    const row = csv.csv.split('\r\n')[1] ?? '';
    expect(row).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(row.endsWith(`;;'-2+3`)).toBe(true);
    expect(row).not.toMatch(/;=|;@|;\+/);
  });
});
