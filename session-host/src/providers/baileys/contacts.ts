/**
 * The phone's contacts as Baileys reports them (`contacts.upsert` with the address book after
 * pairing, `contacts.update` for changes, `messaging-history.set` with the history sync's contacts),
 * reduced to what an import needs: the phone number's digits and the names known. Individuals only:
 * groups, broadcast lists, newsletters and `@lid` ids nothing resolves to a phone number are left out
 * (an unresolved LID's digits are not a phone number, BEHAVIOUR "Inbound WhatsApp messages").
 */
import type { PhoneContact } from '@conversa/functions/contracts/session-events';
import { type Contact, isLidUser, isPnUser } from '@whiskeysockets/baileys';
import type { StoredPhoneContact } from '../../storage/phone-contacts.ts';
import { jidUser, type LidResolver } from './jids.ts';

const text = (value: string | null | undefined): string | undefined => value?.trim() || undefined;

/** The stored shape of one reported contact, or undefined when it is not a person with a phone number. */
export async function phoneContactOf(contact: Partial<Contact>, resolver: LidResolver): Promise<StoredPhoneContact | undefined> {
  const ids = [contact.id, contact.phoneNumber, contact.lid].filter((id): id is string => Boolean(id));
  let pn = ids.find((id) => isPnUser(id));
  if (!pn) {
    const lid = ids.find((id) => isLidUser(id));
    if (!lid) return undefined; // a group, broadcast list, newsletter or status
    const resolved = await resolver.number(lid);
    if (!resolved.resolved) return undefined;
    pn = `${resolved.number}@s.whatsapp.net`;
  }
  const number = jidUser(pn).replace(/\D/g, '');
  if (!/^\d{8,20}$/.test(number)) return undefined;
  const name = text(contact.name);
  const notify = text(contact.notify) ?? text(contact.verifiedName);
  return { number, ...(name ? { name } : {}), ...(notify ? { notify } : {}) };
}

export async function phoneContactsOf(contacts: Partial<Contact>[], resolver: LidResolver): Promise<StoredPhoneContact[]> {
  const out: StoredPhoneContact[] = [];
  for (const contact of contacts) {
    const found = await phoneContactOf(contact, resolver);
    if (found) out.push(found);
  }
  return out;
}

/** The address-book name first, else the contact's own WhatsApp name. */
export const toPhoneContact = (stored: StoredPhoneContact): PhoneContact => {
  const name = stored.name ?? stored.notify;
  return name ? { number: stored.number, name } : { number: stored.number };
};
