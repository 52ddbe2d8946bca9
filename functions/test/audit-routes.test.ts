/**
 * The audit trail as an admin observes it (issue 21 §3): an act through the API, then GET /audit
 * shows exactly one entry naming it (action, target, before/after with secrets masked, address and
 * user agent), the CSV export holds the same rows, and the attacks: a plain user, another company,
 * forged and stale tokens, garbage in every query parameter, and no route that edits an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditActions, MASKED } from '#contracts/audit';
import { recordAudit } from '#domain/audit/record';
import { httpRoutes } from '../src/routes.ts';
import { call, type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

let stack: Stack;
let a: Tenant;
let b: Tenant;
let root: Tenant;

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AuditTest/1.0';
const as = (token: string, ip = '203.0.113.7') => ({ token, sourceIp: ip, headers: { 'user-agent': BROWSER } });

beforeAll(async () => {
  stack = await startStack();
  [a, b, root] = await Promise.all([seedTenant(stack), seedTenant(stack), seedTenant(stack, { super: true })]);
}, 90_000);
afterAll(async () => {
  await stack?.stop();
});

/** Entries of the tenant for one target, as the admin reads them. */
async function entriesOf(tenant: Tenant, query: Record<string, string>) {
  const res = await call('GET /audit', { token: tenant.admin.token, query });
  expect(res.status).toBe(200);
  return res.body.entries as Array<Record<string, unknown>>;
}

/** Reads the export as a spreadsheet would: `;`-separated, quoted cells may hold `;`, quotes and line breaks. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
    } else if (!quoted && ch === ';') {
      row.push(cell);
      cell = '';
    } else if (!quoted && ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe('user acts', () => {
  it('records a user created, edited (role, password, queues) and deleted, one entry each, secrets masked', async () => {
    // Act: create
    const email = `audit-${Date.now()}@acme.test`;
    const made = await call('POST /users', {
      ...as(a.admin.token),
      body: { name: 'Ana Audit', email, password: 'Secret123', profile: 'user' },
    });
    expect(made.status).toBe(201);
    const userId = String(made.body.id);
    // Assess: exactly one entry for that user, with who, what, where
    let entries = await entriesOf(a, { targetType: 'user' });
    let forUser = entries.filter((e) => e.targetId === userId);
    expect(forUser).toHaveLength(1);
    expect(forUser[0]).toMatchObject({
      companyId: a.companyId,
      userId: a.admin.id,
      action: 'user.create',
      targetType: 'user',
      targetId: userId,
      ip: '203.0.113.7',
      userAgent: BROWSER,
      changes: {
        name: { from: null, to: 'Ana Audit' },
        email: { from: null, to: email },
        profile: { from: null, to: 'user' },
        password: { from: null, to: MASKED },
      },
    });
    expect(typeof forUser[0]?.userName).toBe('string');
    expect(JSON.stringify(forUser[0])).not.toContain('Secret123');

    // Act: edit role and password
    const edited = await call('PUT /users/{id}', {
      ...as(a.admin.token, '198.51.100.9'),
      params: { id: userId },
      body: { name: 'Ana Audit', email, profile: 'admin', password: 'Another456' },
    });
    expect(edited.status).toBe(200);
    entries = await entriesOf(a, { action: 'user.update' });
    forUser = entries.filter((e) => e.targetId === userId);
    expect(forUser).toHaveLength(1);
    expect(forUser[0]?.changes).toEqual({ profile: { from: 'user', to: 'admin' }, password: { from: MASKED, to: MASKED } });
    expect(forUser[0]?.ip).toBe('198.51.100.9');
    expect(JSON.stringify(forUser[0])).not.toContain('Another456');

    // Act: put the user in a queue
    const queue = await call('POST /queue', { token: a.admin.token, body: { name: `Fila ${userId}`, color: '#102030' } });
    expect(queue.status).toBe(201);
    const moved = await call('PUT /users/{id}', { ...as(a.admin.token), params: { id: userId }, body: { queueIds: [queue.body.id] } });
    expect(moved.status).toBe(200);
    const queued = (await entriesOf(a, { action: 'user.update' })).filter((e) => e.targetId === userId);
    expect(queued).toHaveLength(2);
    expect(queued[0]?.changes).toEqual({ queueIds: { from: [], to: [queue.body.id] } });

    // Act: delete
    expect((await call('DELETE /users/{id}', { ...as(a.admin.token), params: { id: userId } })).status).toBe(204);
    entries = await entriesOf(a, { targetType: 'user' });
    forUser = entries.filter((e) => e.targetId === userId);
    expect(forUser.map((e) => e.action)).toEqual(['user.delete', 'user.update', 'user.update', 'user.create']);
    expect(forUser[0]?.changes).toMatchObject({ email: { from: email, to: null }, profile: { from: 'admin', to: null } });

    // The CSV holds the same rows, newest first
    const csv = await call('GET /audit/export.csv', { token: a.admin.token, query: { targetType: 'user' } });
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toMatch(/^text\/csv/);
    expect(String(csv.headers['content-disposition'])).toContain('attachment');
    const [header, ...rows] = csvRows(csv.body);
    expect(header).toEqual([
      'createdAt',
      'companyId',
      'userId',
      'userName',
      'action',
      'targetType',
      'targetId',
      'changes',
      'ip',
      'userAgent',
    ]);
    const last = (row: string[]) => row.slice(-2);
    const csvForUser = rows.filter((row) => row.includes(userId) && row[5] === 'user');
    expect(csvForUser.map((row) => row[4])).toEqual(['user.delete', 'user.update', 'user.update', 'user.create']);
    // The CSV writes each time on the company's clock with its offset (issue 25 "One time zone"), to the second.
    expect(csvForUser.every((row) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}-03:00$/.test(row[0] as string))).toBe(true);
    const second = (iso: string) => Math.floor(Date.parse(iso) / 1000);
    expect(csvForUser.map((row) => second(row[0] as string))).toEqual(forUser.map((e) => second(e.createdAt as string)));
    expect(last(csvForUser[3] as string[])).toEqual(['203.0.113.7', BROWSER]);
    expect(JSON.parse(csvForUser[0]?.[7] as string)).toEqual(forUser[0]?.changes);
    expect(csv.body).not.toContain('Secret123');
    expect(csv.body).not.toContain('Another456');
  }, 60_000);
});

describe('reading the trail', () => {
  it('filters by user, action, target type and dates, newest first, 40 a page', async () => {
    // Prepare: 45 entries of one made-up act, a minute apart, by two users
    const base = Date.parse('2025-03-10T12:00:00.000Z');
    for (let i = 0; i < 45; i++) {
      await recordAudit({
        companyId: a.companyId,
        userId: i % 3 === 0 ? 991 : 992,
        userName: 'Bulk',
        action: 'queue.update',
        targetType: 'queue',
        targetId: i,
        now: new Date(base + i * 60_000),
      });
    }
    const query = { action: 'queue.update', from: '2025-03-10', to: '2025-03-10' };
    // Act
    const first = await call('GET /audit', { token: a.admin.token, query });
    const second = await call('GET /audit', { token: a.admin.token, query: { ...query, pageNumber: '2' } });
    const byUser = await entriesOf(a, { ...query, userId: '991' });
    const narrow = await entriesOf(a, { targetType: 'queue', from: '2025-03-10T12:10:00Z', to: '2025-03-10T12:12:00Z' });
    const otherDay = await entriesOf(a, { ...query, from: '2025-03-11', to: '2025-03-12' });
    // Assess
    expect(first.body.entries).toHaveLength(40);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.entries[0].targetId).toBe('44');
    expect(second.body.entries.map((e: { targetId: string }) => e.targetId)).toEqual(['4', '3', '2', '1', '0']);
    expect(second.body.hasMore).toBe(false);
    expect(byUser).toHaveLength(15);
    expect(byUser.every((e) => e.userId === 991)).toBe(true);
    expect(narrow.map((e) => e.targetId)).toEqual(['12', '11', '10']);
    expect(otherDay).toEqual([]);
  });

  it('never shows another company its entries; a super admin reads any company by companyId', async () => {
    await recordAudit({ companyId: a.companyId, action: 'setting.update', targetType: 'setting', targetId: 'onlyOfA', userId: null });
    const ofB = await call('GET /audit', { token: b.admin.token, query: { targetType: 'setting' } });
    const bAsksForA = await call('GET /audit', { token: b.admin.token, query: { companyId: String(a.companyId) } });
    const bCsvForA = await call('GET /audit/export.csv', { token: b.admin.token, query: { companyId: String(a.companyId) } });
    const rootReadsA = await call('GET /audit', {
      token: root.admin.token,
      query: { companyId: String(a.companyId), targetType: 'setting' },
    });
    expect(ofB.status).toBe(200);
    expect(JSON.stringify(ofB.body)).not.toContain('onlyOfA');
    expect(bAsksForA.status).toBe(403);
    expect(bCsvForA.status).toBe(403);
    expect(rootReadsA.body.entries.map((e: { targetId: string }) => e.targetId)).toContain('onlyOfA');
  });

  it('refuses a plain user, a forged token and a token of an ended session', async () => {
    const plain = await a.addUser();
    const forged = `${a.admin.token.slice(0, -6)}AAAAAA`;
    const ended = await a.addUser('admin');
    expect((await call('DELETE /auth/logout', { token: ended.token })).status).toBe(204);
    for (const key of ['GET /audit', 'GET /audit/export.csv']) {
      expect((await call(key, { token: plain.token })).status, key).toBe(403);
      expect((await call(key, { token: forged })).status, key).toBe(401);
      expect((await call(key, { token: ended.token })).status, key).toBe(401);
      expect((await call(key, {})).status, key).toBe(401);
    }
  });

  it('answers 400 naming the field for garbage in every query parameter', async () => {
    const garbage: Array<[string, string]> = [
      ['from', 'yesterday'],
      ['to', '2025-13-45'],
      ['userId', 'abc'],
      ['userId', '-3'],
      ['action', 'user.hack'],
      ['targetType', 'everything'],
      ['pageNumber', '0'],
      ['pageNumber', 'x'],
      ['pageNumber', '100000'],
      ['companyId', '1.5'],
    ];
    for (const key of ['GET /audit', 'GET /audit/export.csv']) {
      for (const [field, value] of garbage) {
        const res = await call(key, { token: a.admin.token, query: { [field]: value } });
        expect(res.status, `${key} ${field}=${value}`).toBe(400);
        expect(res.body.field, `${key} ${field}=${value}`).toBe(field);
      }
      const reversed = await call(key, { token: a.admin.token, query: { from: '2025-03-02', to: '2025-03-01' } });
      expect(reversed.status).toBe(400);
      expect(reversed.body.field).toBe('to');
    }
  });

  it('offers no route that writes, edits or deletes an entry', () => {
    const auditRoutes = httpRoutes.filter((route) => route.path === '/audit' || route.path.startsWith('/audit/'));
    expect(auditRoutes.map((route) => `${route.method} ${route.path}`).sort()).toEqual(['GET /audit', 'GET /audit/export.csv']);
  });

  it('names every action it can record in the contract the web translates', () => {
    expect(new Set(auditActions).size).toBe(auditActions.length);
  });
});
