/**
 * Importing the contacts of the phone (SPEC 2 Contacts "import", SPEC 7 POST /contacts/import with
 * neither a file nor rows), end to end: the API sends `importContacts` to the session-host, the
 * simulated phone lists its address book and chats, the host queues them as `contacts` batches and
 * the inbound Lambda creates the missing contacts, which show in GET /contacts and arrive over the
 * socket. A second import writes nothing new; without a default connection the API says so.
 */
import { randomInt } from 'node:crypto';
import { channels } from '@conversa/functions/contracts/channels';
import type { Contact, ContactEvent } from '@conversa/functions/contracts/contacts';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Call, client, createTenant, firstPlanId, superLogin, type Tenant } from './tenants.ts';
import {
  type ConnectionSetup,
  connectedConnection,
  connectSocket,
  ok,
  type Simulator,
  type Socket,
  simulator,
  waitUntil,
} from './whatsapp-kit.ts';

let call: Call;
let sim: Simulator;
let tenant: Tenant;
let socket: Socket | undefined;

const phone = () => `55119${randomInt(10_000_000, 99_999_999)}`;

/** Saves contacts on the simulated phone's address book. */
async function saveOnPhone(simId: string, contacts: { number: string; name?: string }[]): Promise<void> {
  const res = await fetch(`${inject('simulatorUrl').replace(/\/$/, '')}/api/connections/${simId}/address-book`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ contacts }),
  });
  if (!res.ok) throw new Error(`address-book ${simId}: ${res.status} ${await res.text()}`);
}

async function allContacts(): Promise<Contact[]> {
  const page = await ok<{ contacts: Contact[]; hasMore: boolean }>(call, 'GET', '/contacts', { token: tenant.admin.token });
  expect(page.hasMore).toBe(false);
  return page.contacts;
}

const withNumber = (contacts: Contact[], number: string) => contacts.filter((c) => c.number === number);

beforeAll(async () => {
  call = client(inject('apiUrl'));
  sim = simulator(inject('simulatorUrl'));
  const superToken = await superLogin(call, inject('admin'));
  tenant = await createTenant(call, superToken, await firstPlanId(call), 'phone-import');
});

afterAll(() => socket?.close());

describe('POST /contacts/import without a file: the phone contacts', () => {
  it('answers 404 ERR_NO_DEF_WAPP_FOUND while the company has no connection, and creates nothing', async () => {
    const res = await call('POST', '/contacts/import', { token: tenant.admin.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_DEF_WAPP_FOUND' });
    expect(await allContacts()).toEqual([]);
  });

  it('answers 409 ERR_WAPP_NOT_INITIALIZED while the default connection is not CONNECTED (its QR unscanned)', async () => {
    const other = await createTenant(call, await superLogin(call, inject('admin')), await firstPlanId(call), 'phone-import-qr');
    await sim.blockScan(`${other.companyId}.1`);
    await ok(call, 'POST', '/whatsapp', { token: other.admin.token, body: { name: 'Unscanned', greetingMessage: 'Hello!', queueIds: [] } });
    const res = await call('POST', '/contacts/import', { token: other.admin.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' });
  });

  describe('with a CONNECTED default connection', () => {
    let setup: ConnectionSetup;
    const saved = { number: phone(), name: 'Ana Agenda' };
    const unnamed = { number: phone() };
    const kept = { number: phone(), name: 'Carlos Agenda' };
    const numberOnly = { number: phone(), name: 'Daniela Agenda' };
    const wrote = phone();

    beforeAll(async () => {
      setup = await connectedConnection(call, sim, { token: tenant.admin.token, companyId: tenant.companyId, queues: ['Phone import'] });
      // Already in the inbox: one with a name of its own, one known only by its number.
      await ok(call, 'POST', '/contacts', { token: tenant.admin.token, body: { name: 'Carlos Original', number: kept.number } });
      await ok(call, 'POST', '/contacts', { token: tenant.admin.token, body: { name: numberOnly.number, number: numberOnly.number } });
      // Someone who wrote to the phone (the pipeline made a contact with their WhatsApp name).
      await sim.send(setup.simId, wrote, 'Oi', 'Eva');
      await waitUntil('the contact who wrote', async () => withNumber(await allContacts(), wrote).length === 1);
      await saveOnPhone(setup.simId, [saved, unnamed, kept, numberOnly]);
      socket = await connectSocket(inject('wsUrl'), tenant.admin.token);
    });

    it('answers 202 at once; the missing contacts appear in GET /contacts and over the socket, existing ones stay', async () => {
      const res = await call('POST', '/contacts/import', { token: tenant.admin.token });
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ whatsappId: setup.connectionId });

      const created = await socket!.waitFor(
        'the create event of the saved contact',
        (f) =>
          f.event === channels.contact(tenant.companyId) &&
          (f.data as ContactEvent).action === 'create' &&
          ((f.data as Extract<ContactEvent, { contact: Contact }>).contact?.number ?? '') === saved.number,
        45_000,
      );
      expect((created.data as { contact: Contact }).contact).toMatchObject({ name: 'Ana Agenda', whatsappId: setup.connectionId });

      const contacts = await waitUntil('every phone contact in GET /contacts', async () => {
        const list = await allContacts();
        return withNumber(list, unnamed.number).length && withNumber(list, numberOnly.number)[0]?.name === 'Daniela Agenda'
          ? list
          : undefined;
      });
      expect(withNumber(contacts, saved.number).map((c) => c.name)).toEqual(['Ana Agenda']);
      expect(withNumber(contacts, unnamed.number).map((c) => c.name)).toEqual([unnamed.number]);
      expect(withNumber(contacts, kept.number).map((c) => c.name)).toEqual(['Carlos Original']);
      expect(withNumber(contacts, wrote).map((c) => c.name)).toEqual(['Eva']);
      expect(contacts).toHaveLength(5);
    });

    it('a second import adds only what is new on the phone: no duplicates, nothing renamed', async () => {
      const before = await allContacts();
      const later = { number: phone(), name: 'Fabio Novo' };
      await saveOnPhone(setup.simId, [later]);
      const res = await call('POST', '/contacts/import', { token: tenant.admin.token });
      expect(res.status).toBe(202);
      // The new contact travels in the same batch as the others: once it shows, the batch is done.
      const after = await waitUntil('the newly saved contact', async () => {
        const list = await allContacts();
        return withNumber(list, later.number).length ? list : undefined;
      });
      expect(after).toHaveLength(before.length + 1);
      const unchanged = after.filter((c) => c.number !== later.number);
      expect(unchanged.map((c) => [c.id, c.number, c.name, c.updatedAt]).sort()).toEqual(
        before.map((c) => [c.id, c.number, c.name, c.updatedAt]).sort(),
      );
    });

    it('a JSON body without rows is still a 400, not a phone import', async () => {
      for (const body of [{}, { rows: [] }]) {
        const res = await call('POST', '/contacts/import', { token: tenant.admin.token, body });
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ error: 'ERR_VALIDATION' });
      }
    });
  });
});
