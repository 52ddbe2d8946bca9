/**
 * Whom a campaign ships to (SPEC 3 "Campaign": contactListId, tagListId; BEHAVIOUR "Campaigns"):
 * its contact list's items, then the contacts carrying its tag, as one walk the engine takes a batch
 * at a time (engine.ts), its place kept in the run's `cursor`.
 *
 * - A tag is put on tickets (SPEC 7 "ticket-tags"), so "the contacts carrying a tag" are the
 *   contacts of the tickets carrying it, each once however many of its tickets carry the tag, and
 *   never a group. Their name, number and email are read as they are at the send.
 * - With both a list and a tag the audience is their union, without duplicates by number: a tag's
 *   contact whose number is in the list is the list's (one message, the list item's name).
 * - Ids: a list item ships under its own id; a tag's contact under TAG_RECIPIENT_BASE + its contact
 *   id, so the two never meet in the shipping records (one per campaign and recipient) nor in the
 *   send's message id (compose.ts). List item and contact ids stay far below it.
 * - Cursor: below TAG_RECIPIENT_BASE, the last list item walked; from it on, TAG_RECIPIENT_BASE + the
 *   last ticket walked of the tag's.
 * - valid/invalid (the report's tiles): list items known to be off WhatsApp are invalid; a tag's
 *   contact is valid when it has a number. Only the valid are shipped.
 */
import { NO_TAG_LIST } from '#contracts/campaigns';
import { allTagTickets, getContacts, numbersInList, tagTicketsAfter, ticketContactIds } from '#storage/campaigns/audience';
import type { CampaignRecord } from '#storage/campaigns/campaigns';
import { contactListItemsAfter, countContactListItems } from '#storage/contact-lists/items';
import type { ContactRecord } from '#storage/contacts/contacts';

export const TAG_RECIPIENT_BASE = 1_000_000_000_000;

export type Audience = Pick<CampaignRecord, 'companyId' | 'contactListId' | 'tagListId'>;

export interface AudienceRecipient {
  id: number;
  name: string;
  number: string;
  email: string;
  valid: boolean;
}

export interface AudienceWalk {
  recipients: AudienceRecipient[];
  cursor: number;
  more: boolean;
}

/** The tag's id; "Nenhuma" (NO_TAG_LIST) is no tag. */
const tagOf = (audience: Pick<Audience, 'tagListId'>): number | undefined =>
  audience.tagListId === NO_TAG_LIST ? undefined : audience.tagListId;

export const hasAudience = (audience: Pick<Audience, 'contactListId' | 'tagListId'>): boolean =>
  Boolean(audience.contactListId) || tagOf(audience) !== undefined;

/** The next batch of up to `limit` list items or tagged tickets after `cursor` (0: from the start). */
export async function walkAudience(audience: Audience, cursor: number, limit: number): Promise<AudienceWalk> {
  const { companyId, contactListId } = audience;
  const tagId = tagOf(audience);
  if (contactListId && cursor < TAG_RECIPIENT_BASE) {
    const walk = await contactListItemsAfter(companyId, contactListId, cursor, limit);
    const recipients = walk.items.map((item) => ({
      id: item.id,
      name: item.name,
      number: item.number,
      email: item.email,
      valid: item.isWhatsappValid !== false,
    }));
    if (walk.more || tagId === undefined) return { recipients, cursor: walk.items.at(-1)?.id ?? cursor, more: walk.more };
    // The list is walked: the tag's contacts come next.
    return { recipients, cursor: TAG_RECIPIENT_BASE, more: true };
  }
  if (tagId === undefined) return { recipients: [], cursor, more: false };
  const after = Math.max(0, cursor - TAG_RECIPIENT_BASE);
  const page = await tagTicketsAfter(companyId, tagId, after, limit);
  const people = await tagContacts(audience, page.ticketIds);
  return {
    recipients: people.map((contact) => ({
      id: TAG_RECIPIENT_BASE + contact.id,
      name: contact.name,
      number: contact.number,
      email: contact.email ?? '',
      valid: Boolean(contact.number),
    })),
    cursor: TAG_RECIPIENT_BASE + (page.ticketIds.at(-1) ?? after),
    more: page.more,
  };
}

/** The contacts of these tickets, each once, no group, none whose number the campaign's list has. */
async function tagContacts(audience: Audience, ticketIds: number[]): Promise<ContactRecord[]> {
  if (!ticketIds.length) return [];
  const contactIds = await ticketContactIds(audience.companyId, ticketIds);
  const contacts = await getContacts(audience.companyId, [...contactIds.values()]);
  const seen = new Set<number>();
  const people: ContactRecord[] = [];
  for (const ticketId of ticketIds) {
    const contact = contacts.get(contactIds.get(ticketId) ?? 0);
    if (!contact || contact.isGroup || seen.has(contact.id)) continue;
    seen.add(contact.id);
    people.push(contact);
  }
  if (!audience.contactListId) return people;
  const listed = await numbersInList(
    audience.companyId,
    audience.contactListId,
    people.map((contact) => contact.number),
  );
  return people.filter((contact) => !listed.has(contact.number));
}

/** valid and invalid recipients of the whole audience, counted at the start for the report. */
export async function countAudience(audience: Audience): Promise<{ valid: number; invalid: number }> {
  const counts = audience.contactListId
    ? await countContactListItems(audience.companyId, audience.contactListId)
    : { valid: 0, invalid: 0 };
  const tagId = tagOf(audience);
  if (tagId === undefined) return counts;
  const ticketIds = await allTagTickets(audience.companyId, tagId);
  for (const contact of await tagContacts(audience, ticketIds))
    if (contact.number) counts.valid++;
    else counts.invalid++;
  return counts;
}
