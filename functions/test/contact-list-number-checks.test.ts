/**
 * Contact list numbers checked against WhatsApp (issue 10) over DynamoDB Local + cognito-local: an
 * added, uploaded or renumbered item asks the company's connected session (`checkNumbers` commands,
 * NUMBER_CHECK_BATCH numbers each, the default connection first); with none connected nothing is
 * asked and the numbers wait, listed as unchecked, for a session to connect; the session's answer
 * (`numbersChecked` through the inbound pipeline) stores each verdict only while the item still has
 * that number, and tells the list's page to reload; a queue failure never fails the request.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { NUMBER_CHECK_BATCH, type SessionCommand } from '#contracts/session-events';
import { processInboundEvent } from '#domain/inbound/pipeline';
import '#adapters/wiring';
import { setSessionCommandSender } from '#domain/messages/session-commands';
import { updateConnectionSession } from '#storage/connections';
import { getContactListItem, listUncheckedNumbers } from '#storage/contact-lists/items';
import { CAMPAIGN_COUNTERS, invoke, newItem, newList, skipIds } from './campaigns-harness.ts';
import { type Stack, seedTenant, startStack, type Tenant } from './users-harness.ts';

const published: { event: string; data: unknown }[] = [];
vi.mock(import('../src/realtime/publisher.ts'), async (importOriginal) => ({
  ...(await importOriginal()),
  publishToCompany: async (_companyId: number, event: string, data: unknown) => {
    published.push({ event, data });
    return { sent: 1, gone: 0, failed: 0 };
  },
}));

let stack: Stack;
let t: Tenant;
let other: Tenant;
const commands: SessionCommand[] = [];
type Check = Extract<SessionCommand, { kind: 'checkNumbers' }>;
const checks = () => commands.filter((c): c is Check => c.kind === 'checkNumbers');

beforeAll(async () => {
  stack = await startStack();
  [t, other] = await Promise.all([seedTenant(stack), seedTenant(stack)]);
  await skipIds(other.companyId, CAMPAIGN_COUNTERS);
  setSessionCommandSender(async (command) => void commands.push(command));
}, 120_000);
afterAll(async () => {
  await stack?.stop();
});
afterEach(() => {
  commands.length = 0;
});

async function connection(tenant: Tenant, name: string, fields: Record<string, unknown> = {}): Promise<number> {
  const res = await invoke('POST /whatsapp', {
    token: tenant.admin.token,
    json: { name, token: `${name}-number-checks-token`, ...fields },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

const answer = (
  companyId: number,
  connectionId: number,
  results: { itemId: number; contactListId: number; number: string; valid: boolean }[],
) =>
  processInboundEvent(
    { kind: 'numbersChecked', companyId, connectionId, checkId: `check-${Math.random()}`, results },
    {
      sendCommand: async () => undefined,
      publish: async (_companyId, event, data) => void published.push({ event, data }),
      now: () => new Date(),
    },
  );

describe('WhatsApp validity of contact list numbers', () => {
  it('waits, unchecked, while no session of the company is connected, then the connect sweep finds the numbers', async () => {
    const list = await newList(t, 'Sem conexão');
    await connection(t, 'Desligada');
    const item = await newItem(t, list.id, { number: '5511900000001' });
    expect(item.isWhatsappValid).toBeNull();
    expect(checks()).toEqual([]);
    const unchecked = await listUncheckedNumbers(t.companyId, 1000);
    expect(unchecked).toContainEqual({ itemId: item.id, contactListId: list.id, number: '5511900000001' });
    // Another tenant's sweep never sees them.
    expect((await listUncheckedNumbers(other.companyId, 1000)).map((u) => u.itemId)).not.toContain(item.id);
    // Asked on demand with nothing connected: nothing could answer.
    const onDemand = await invoke('POST /contact-lists/{id}/check-numbers', { token: t.admin.token, params: { id: list.id } });
    expect(onDemand.status).toBe(409);
    expect(onDemand.body).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  it('asks the default connected session, in batches, for added, uploaded and renumbered items; an answer stores each verdict once', async () => {
    const plain = await connection(other, 'Outra');
    const secondary = await connection(other, 'Secundaria', { isDefault: false });
    await updateConnectionSession(other.companyId, secondary, { status: 'CONNECTED' });
    await updateConnectionSession(other.companyId, plain, { status: 'CONNECTED' });
    const list = await newList(other, 'Com conexão');

    const item = await newItem(other, list.id, { number: '5511900000002' });
    expect(checks()).toMatchObject([
      { companyId: other.companyId, connectionId: plain, numbers: [{ itemId: item.id, contactListId: list.id, number: '5511900000002' }] },
    ]);

    commands.length = 0;
    const rows = Array.from({ length: 120 }, (_, i) => ({ name: `Pessoa ${i}`, number: `55118${String(i).padStart(8, '0')}` }));
    const upload = await invoke('POST /contact-lists/{id}/upload', {
      token: other.admin.token,
      params: { id: list.id },
      json: { contacts: rows },
    });
    expect(upload.body).toMatchObject({ imported: 120 });
    expect(checks().map((c) => c.numbers.length)).toEqual([NUMBER_CHECK_BATCH, NUMBER_CHECK_BATCH, 120 - 2 * NUMBER_CHECK_BATCH]);
    expect(new Set(checks().flatMap((c) => c.numbers.map((n) => n.number)))).toEqual(new Set(rows.map((r) => r.number)));

    // The answer: one valid, one not; the list's page is told to reload.
    published.length = 0;
    const [first, second] = checks()[0]?.numbers ?? [];
    if (!first || !second) throw new Error('no numbers');
    expect(
      await answer(other.companyId, plain, [
        { ...first, valid: true },
        { ...second, valid: false },
      ]),
    ).toBe('numbers-checked');
    expect((await getContactListItem(other.companyId, first.itemId))?.isWhatsappValid).toBe(true);
    expect((await getContactListItem(other.companyId, second.itemId))?.isWhatsappValid).toBe(false);
    expect(published).toEqual([
      { event: `company-${other.companyId}-ContactListItem-${list.id}`, data: { action: 'reload', contactListId: list.id } },
    ]);
    const stillUnchecked = (await listUncheckedNumbers(other.companyId, 1000)).map((u) => u.itemId);
    expect(stillUnchecked).not.toContain(first.itemId);
    expect(stillUnchecked).not.toContain(second.itemId);

    // A renumbered item is unchecked and asked again; a late verdict on its old number is ignored.
    commands.length = 0;
    const edited = await invoke('PUT /contact-list-items/{id}', {
      token: other.admin.token,
      params: { id: first.itemId },
      json: { number: '0011900000009' },
    });
    expect(edited.body.isWhatsappValid).toBeNull();
    expect(checks()).toMatchObject([{ numbers: [{ itemId: first.itemId, number: '0011900000009' }] }]);
    expect(await answer(other.companyId, plain, [{ ...first, valid: true }])).toBe('ignored');
    expect((await getContactListItem(other.companyId, first.itemId))?.isWhatsappValid).toBeNull();
    await answer(other.companyId, plain, [{ ...first, number: '0011900000009', valid: false }]);
    expect((await getContactListItem(other.companyId, first.itemId))?.isWhatsappValid).toBe(false);

    // An edit of the name alone keeps the verdict and asks nothing.
    commands.length = 0;
    await invoke('PUT /contact-list-items/{id}', { token: other.admin.token, params: { id: first.itemId }, json: { name: 'Outro Nome' } });
    expect(checks()).toEqual([]);
    expect((await getContactListItem(other.companyId, first.itemId))?.isWhatsappValid).toBe(false);

    // A verdict naming another tenant's item id touches nothing there.
    const mine = await newItem(t, (await newList(t, 'Alvo')).id, { number: '5511900000003' });
    expect(
      await answer(other.companyId, plain, [{ itemId: mine.id, contactListId: mine.contactListId, number: mine.number, valid: true }]),
    ).toBe('ignored');
    expect((await getContactListItem(t.companyId, mine.id))?.isWhatsappValid).toBeNull();
  });

  it("asks a list's unchecked numbers again on demand, that list's only, for any user of the company", async () => {
    const tenant = await seedTenant(stack);
    const id = await connection(tenant, 'Sob demanda');
    await updateConnectionSession(tenant.companyId, id, { status: 'CONNECTED' });
    const [mine, another] = [await newList(tenant, 'Pedida'), await newList(tenant, 'Outra')];
    const asked = [await newItem(tenant, mine.id), await newItem(tenant, mine.id)];
    await newItem(tenant, another.id);
    const checked = await newItem(tenant, mine.id);
    await answer(tenant.companyId, id, [{ itemId: checked.id, contactListId: mine.id, number: checked.number, valid: true }]);
    commands.length = 0;
    const user = await tenant.addUser('user');
    const res = await invoke('POST /contact-lists/{id}/check-numbers', { token: user.token, params: { id: mine.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ requested: 2 });
    expect(checks()).toMatchObject([
      { connectionId: id, numbers: asked.map((item) => ({ itemId: item.id, contactListId: mine.id, number: item.number })) },
    ]);
    // Another tenant's list id is nothing here.
    expect((await invoke('POST /contact-lists/{id}/check-numbers', { token: other.admin.token, params: { id: mine.id } })).status).toBe(
      404,
    );
    for (const bad of ['0', 'abc', '-1'])
      expect((await invoke('POST /contact-lists/{id}/check-numbers', { token: user.token, params: { id: bad } })).status).toBe(400);
  });

  it('keeps the item when the commands queue fails: it stays unchecked for the next connect', async () => {
    const tenant = await seedTenant(stack);
    const id = await connection(tenant, 'Falha');
    await updateConnectionSession(tenant.companyId, id, { status: 'CONNECTED' });
    setSessionCommandSender(async () => {
      throw new Error('queue down');
    });
    try {
      const list = await newList(tenant, 'Fila fora');
      const res = await invoke('POST /contact-list-items', {
        token: tenant.admin.token,
        json: { name: 'Ana', number: '5511900000004', contactListId: list.id },
      });
      expect(res.status).toBe(201);
      expect((await listUncheckedNumbers(tenant.companyId, 10)).map((u) => u.itemId)).toEqual([res.body.id]);
    } finally {
      setSessionCommandSender(async (command) => void commands.push(command));
    }
  });
});
