/**
 * The inbound `contacts` event (a batch of the phone's contacts, domain/contacts/phone-import.ts):
 * missing contacts are created and announced, existing ones left as they are (or named when only
 * their number named them), and a replayed batch changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboundEvent, PhoneContact } from '../src/contracts/session-events.ts';
import { createContactFor } from '../src/domain/contacts/manage.ts';
import { getContactByNumber } from '../src/storage/contacts/contacts.ts';
import { deliver, recorder, tenant } from './inbound-harness.ts';
import { type DynamoDbLocal, startDynamoDbLocal } from './support/dynamodb-local.ts';

let ddb: DynamoDbLocal;
beforeAll(async () => {
  ddb = await startDynamoDbLocal();
}, 60_000);
afterAll(async () => {
  await ddb?.stop();
});

const batch = (companyId: number, connectionId: number, contacts: PhoneContact[], n = 0): Extract<InboundEvent, { kind: 'contacts' }> => ({
  kind: 'contacts',
  companyId,
  connectionId,
  importId: 'import-1',
  batch: n,
  contacts,
});

describe('inbound contacts (phone import)', () => {
  it('creates the missing contacts with the phone name (or the number) and publishes a create event for each', async () => {
    // Prepare
    const { companyId, connectionId } = await tenant();
    const effects = recorder();

    // Act
    const out = await deliver(
      effects,
      batch(companyId, connectionId, [
        { number: '5511911110001', name: '  Ana Agenda ' },
        { number: '5511911110002' },
        { number: '5511911110003', name: 'X' },
      ]),
    );

    // Assess
    expect(out.batchItemFailures).toEqual([]);
    expect(await getContactByNumber(companyId, '5511911110001')).toMatchObject({
      name: 'Ana Agenda',
      whatsappId: connectionId,
      isGroup: false,
    });
    expect((await getContactByNumber(companyId, '5511911110002'))?.name).toBe('5511911110002');
    // A one-letter name is below the contact rules (2 to 50): the number names it.
    expect((await getContactByNumber(companyId, '5511911110003'))?.name).toBe('5511911110003');
    const creates = effects.events.filter((e) => e.event === `company-${companyId}-contact` && e.data.action === 'create');
    expect(creates.map((e) => e.data.contact.number).sort()).toEqual(['5511911110001', '5511911110002', '5511911110003']);
  });

  it('leaves an existing contact as it is, names one known only by its number, never fails as a duplicate', async () => {
    // Prepare
    const { companyId, connectionId } = await tenant();
    const named = await createContactFor(companyId, { name: 'Carlos Original', number: '5511922220001', email: 'c@x.com', extraInfo: [] });
    const numberOnly = await createContactFor(companyId, { name: '5511922220002', number: '5511922220002', email: '', extraInfo: [] });
    const effects = recorder();

    // Act
    const out = await deliver(
      effects,
      batch(companyId, connectionId, [
        { number: '5511922220001', name: 'Carlos Agenda' },
        { number: '5511922220002', name: 'Daniela Agenda' },
      ]),
    );

    // Assess
    expect(out.batchItemFailures).toEqual([]);
    expect(await getContactByNumber(companyId, '5511922220001')).toEqual(named);
    expect(await getContactByNumber(companyId, '5511922220002')).toMatchObject({ id: numberOnly.id, name: 'Daniela Agenda' });
    const contactEvents = effects.events.filter((e) => e.event === `company-${companyId}-contact`);
    expect(contactEvents.map((e) => [e.data.action, e.data.contact.name])).toEqual([['update', 'Daniela Agenda']]);
  });

  it('a replayed batch changes nothing and publishes nothing', async () => {
    // Prepare
    const { companyId, connectionId } = await tenant();
    const event = batch(companyId, connectionId, [{ number: '5511933330001', name: 'Eva' }, { number: '5511933330002' }]);
    await deliver(recorder(), event);
    const before = await Promise.all(['5511933330001', '5511933330002'].map((n) => getContactByNumber(companyId, n)));
    const effects = recorder();

    // Act: the same batch twice more, once twice in one SQS batch
    await deliver(effects, event);
    const out = await deliver(effects, event, event);

    // Assess
    expect(out.batchItemFailures).toEqual([]);
    const after = await Promise.all(['5511933330001', '5511933330002'].map((n) => getContactByNumber(companyId, n)));
    expect(after).toEqual(before);
    expect(effects.events).toEqual([]);
  });

  it('rejects a batch that breaks the contract (a group id as a number): the record fails, nothing is written', async () => {
    // Prepare
    const { companyId, connectionId } = await tenant();
    const effects = recorder();

    // Act
    const out = await deliver(effects, batch(companyId, connectionId, [{ number: '5511944440001' }, { number: '120363025246125486-1' }]));

    // Assess
    expect(out.batchItemFailures).toHaveLength(1);
    expect(await getContactByNumber(companyId, '5511944440001')).toBeUndefined();
  });
});
