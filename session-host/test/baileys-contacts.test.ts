/**
 * Baileys provider, the phone's contacts (for `importContacts`): Baileys-shaped contacts.upsert,
 * contacts.update and messaging-history.set events in, `listContacts()` out. Individuals only,
 * @lid ids resolved to phone numbers or left out, the address-book name before the push name, and
 * kept in DynamoDB so a restarted session (WhatsApp does not send the address book again) still
 * lists them; a logout forgets them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeSocketFactory, provider, recorder, type Stores, startStores } from './fixtures/baileys/harness.ts';

let stores: Stores;
beforeAll(async () => {
  stores = await startStores();
}, 60_000);
afterAll(async () => {
  await stores?.stop();
});

let nextConnection = 500;
const byNumber = (a: { number: string }, b: { number: string }) => a.number.localeCompare(b.number);

async function connected(lidToPn: Record<string, string> = {}, spec = { companyId: 9, connectionId: nextConnection++ }) {
  const fake = fakeSocketFactory(lidToPn);
  const rec = recorder();
  const handle = await provider(stores, { makeSocket: fake.makeSocket }).start(spec, rec.callbacks);
  const sock = fake.last();
  sock.open('5511900002222');
  await vi.waitFor(() => expect(rec.statuses.at(-1)?.status).toBe('CONNECTED'));
  return { sock, rec, spec, handle };
}

describe('listContacts', () => {
  it('lists the individuals Baileys reported, resolving @lid ids and leaving out groups, broadcasts and unresolved LIDs', async () => {
    // Prepare
    const { sock, handle } = await connected({ '111222333444555@lid': '5511977770003@s.whatsapp.net' });

    // Act: the address book after pairing, then a history sync's contacts
    sock.ev.emit('contacts.upsert', [
      { id: '5511977770001@s.whatsapp.net', name: 'Ana Agenda', notify: 'Aninha' },
      { id: '222333444555666@lid', phoneNumber: '5511977770002@s.whatsapp.net', notify: 'Bruno' },
      { id: '111222333444555@lid', verifiedName: 'Loja Três' },
      { id: '999888777666555@lid', name: 'Nobody Resolves Me' },
      { id: '120363025246125486@g.us', name: 'Family group' },
      { id: 'status@broadcast' },
      { id: '1234567890@broadcast', name: 'A broadcast list' },
      { id: '120363111111111111@newsletter', name: 'A channel' },
    ]);
    sock.ev.emit('messaging-history.set', {
      chats: [],
      messages: [],
      contacts: [{ id: '5511977770004@s.whatsapp.net' }],
      isLatest: true,
    });

    // Assess
    await vi.waitFor(async () => expect(await handle.listContacts!()).toHaveLength(4));
    expect((await handle.listContacts!()).sort(byNumber)).toEqual([
      { number: '5511977770001', name: 'Ana Agenda' },
      { number: '5511977770002', name: 'Bruno' },
      { number: '5511977770003', name: 'Loja Três' },
      { number: '5511977770004' },
    ]);
  });

  it('a push-name update never erases the address-book name; a new name from the address book replaces the old one', async () => {
    // Prepare
    const { sock, handle } = await connected();
    sock.ev.emit('contacts.upsert', [{ id: '5511966660001@s.whatsapp.net', name: 'Carla Agenda' }, { id: '5511966660002@s.whatsapp.net' }]);
    await vi.waitFor(async () => expect(await handle.listContacts!()).toHaveLength(2));

    // Act
    sock.ev.emit('contacts.update', [
      { id: '5511966660001@s.whatsapp.net', notify: 'Carlinha' },
      { id: '5511966660002@s.whatsapp.net', name: 'Davi Agenda' },
    ]);

    // Assess
    await vi.waitFor(async () => expect((await handle.listContacts!()).sort(byNumber)[1]?.name).toBe('Davi Agenda'));
    expect((await handle.listContacts!()).sort(byNumber)).toEqual([
      { number: '5511966660001', name: 'Carla Agenda' },
      { number: '5511966660002', name: 'Davi Agenda' },
    ]);
  });

  it('a restarted session lists what the phone reported before (WhatsApp does not send it again); a logout forgets it', async () => {
    // Prepare
    const first = await connected();
    first.sock.ev.emit('contacts.upsert', [{ id: '5511955550001@s.whatsapp.net', name: 'Eva Agenda' }]);
    await vi.waitFor(async () => expect(await first.handle.listContacts!()).toHaveLength(1));
    await first.handle.stop();

    // Act: the host restarts the session; no contacts event this time
    const second = await connected({}, first.spec);

    // Assess
    expect(await second.handle.listContacts!()).toEqual([{ number: '5511955550001', name: 'Eva Agenda' }]);
    await second.handle.logout();
    expect(await second.handle.listContacts!()).toEqual([]);
  });
});
