/**
 * `importContacts` on the host: the phone's contacts leave as `contacts` inbound events of at most
 * PHONE_CONTACTS_BATCH entries, each far below SQS's 256 KB, one entry per number, in one FIFO group.
 */
import { inboundEventSchema, inboundGroupId, PHONE_CONTACTS_BATCH } from '@conversa/functions/contracts/session-events';
import { describe, expect, it } from 'vitest';
import { cleanPhoneContacts, phoneContactBatches } from '../src/phone-contacts.ts';

const command = { kind: 'importContacts' as const, companyId: 3, connectionId: 4, commandId: 'cmd-1' };

describe('phone contact batches', () => {
  it('splits thousands of contacts into valid batches under the SQS size limit, numbered in order, one group', () => {
    // Prepare: 2,050 contacts with the longest names a phone may hold
    const contacts = Array.from({ length: 2050 }, (_, i) => ({ number: `55119${String(i).padStart(8, '0')}`, name: 'ção'.repeat(400) }));

    // Act
    const batches = phoneContactBatches(command, contacts);

    // Assess
    expect(batches.map((b) => b.contacts.length)).toEqual([...Array(20).fill(PHONE_CONTACTS_BATCH), 50]);
    expect(batches.map((b) => b.batch)).toEqual([...Array(21).keys()]);
    for (const batch of batches) {
      expect(inboundEventSchema.safeParse(batch).success).toBe(true);
      expect(Buffer.byteLength(JSON.stringify(batch))).toBeLessThan(256 * 1024);
    }
    expect(new Set(batches.map(inboundGroupId))).toEqual(new Set(['3:4:contacts']));
  });

  it('keeps one entry per number (the named one), digits only, and drops what is not a phone number', () => {
    expect(
      cleanPhoneContacts([
        { number: '+55 (11) 98888-0001' },
        { number: '5511988880001', name: '  Ana  ' },
        { number: '5511988880001', name: 'Ana again' },
        { number: '123' },
        { number: '5511988880002', name: '   ' },
      ]),
    ).toEqual([{ number: '5511988880001', name: 'Ana' }, { number: '5511988880002' }]);
  });

  it('an empty phone makes no batch', () => {
    expect(phoneContactBatches(command, [])).toEqual([]);
  });
});
