/**
 * POST /contacts/{id}/erase (issue 21 §4, LGPD art. 18 VI / GDPR art. 17), admins only: after it,
 * no item of the table and no object of the bucket holds the contact's number, name or words.
 *
 * What goes, in this order:
 *   1. each ticket of the contact (its ticket links): the media objects its messages name (inbound
 *      ones live under `<cid>/whatsapp/...`, not under the ticket; a quick message's, campaign's or
 *      file list's file that a message also names is the company's and stays) and every object under the
 *      ticket's own folder (uploads never sent included), then the ticket with everything of it
 *      (storage/tickets/removal.ts: messages, id lookups, WhatsApp links, history, notes, message and
 *      contact search words, tag links, the slot), each published as a `delete` to its viewers;
 *   2. the contact's schedules, with their files, and the entries of the company's contact lists
 *      (campaign audiences) holding its number;
 *   3. the contact itself, its number guard and its name/number search words, and what is left of
 *      its partition (deleteContactFor), published as a contact `delete`.
 *
 * Tickets are removed, not kept stripped of the contact: the dashboard's counters are separate
 * per-day aggregates (storage/dashboard-counters.ts) holding numbers only, which a ticket's removal
 * does not touch, so the counts stay; a stripped ticket would instead go on showing in the inbox,
 * the kanban and the reports as a conversation with nobody, with its copies (list keys, search
 * words, tag links, last message) all to be rewritten, each a place the person's data could survive.
 *
 * Resumable and idempotent: the contact goes last, and each step deletes what is still there (S3
 * and DynamoDB deletes of something gone succeed), so a Lambda that dies midway leaves the contact
 * with fewer tickets and the admin's retry (the same request) finishes the job; once done, the
 * contact is gone and a retry is a 404. Work is bounded per ticket: its messages are read a page at
 * a time and removed with BatchWriteItem, 25 keys a call, so a contact of thousands of messages
 * never holds them in one transaction. A message arriving from the number afterwards finds no number
 * guard and makes a new contact (a new id).
 *
 * The act is audited (contact.erase) with what went, as counts: the entry names the contact by id
 * only, since an entry holding its name or number would keep what the erasure removes.
 * Returns what was erased, the answer.
 */

import { NotFoundError, ValidationError } from '#commons/errors';
import type { ContactErasure } from '#contracts/contact-data';
import { numberDigits } from '#contracts/contacts';
import { recordAudit } from '#domain/audit/record';
import { deleteMedia, deleteMediaObjects, deleteMediaUnder } from '#domain/media/bucket';
import { isConversationMedia, messageMediaKey } from '#domain/media/keys';
import type { Effects } from '#domain/messages/effects';
import { publishTicketDeleted } from '#domain/tickets/notify';
import { publish } from '#realtime/publisher';
import { listCampaigns } from '#storage/campaigns/campaigns';
import { forgetRecipient } from '#storage/campaigns/ships';
import { contactListItemByNumber, deleteContactListItem } from '#storage/contact-lists/items';
import { listContactLists } from '#storage/contact-lists/lists';
import { purgeContactPartition } from '#storage/contacts/pages';
import { listMessagesPage } from '#storage/messages/messages';
import { deleteSchedule, listSchedules } from '#storage/schedules';
import { pad } from '#storage/table';
import { deleteTicketData } from '#storage/tickets/removal';
import { getTicket } from '#storage/tickets/tickets';
import { contactTicketIds } from './data-export.ts';

/** An erasure only publishes (ticket deletions): it sends nothing to a phone, so its Lambda holds no session-commands grant. */
type ErasureEffects = Pick<Effects, 'publish'>;

import { deleteContactFor, getContactFor } from './manage.ts';

/** A ticket opened for the contact while we erase is taken too; past this many rounds, the retry's. */
const MAX_ROUNDS = 3;
const MESSAGES_PAGE = 500;

/** The typed confirmation: the contact's number, with or without its mask characters. */
function confirms(number: string, confirmNumber: string): boolean {
  const typed = confirmNumber.trim();
  return typed === number || (numberDigits(typed) !== '' && numberDigits(typed) === number);
}

async function eraseTicket(companyId: number, ticketId: number, effects: ErasureEffects, erased: ContactErasure): Promise<void> {
  const ticket = await getTicket(companyId, ticketId);
  if (!ticket) return;
  let cursor: string | undefined;
  do {
    const page = await listMessagesPage(companyId, ticketId, { limit: MESSAGES_PAGE, cursor });
    const keys = page.messages
      .map((message) => messageMediaKey(companyId, message))
      .filter((key) => key && isConversationMedia(companyId, key));
    await deleteMediaObjects(keys);
    erased.mediaObjects += keys.length;
    erased.messages += page.messages.length;
    cursor = page.cursor;
  } while (cursor);
  erased.mediaObjects += await deleteMediaUnder(`${companyId}/tickets/${ticketId}/`);
  if (await deleteTicketData(ticket)) {
    erased.tickets++;
    await publishTicketDeleted(effects, ticket);
  }
}

export async function eraseContact(
  companyId: number,
  contactId: number,
  confirmNumber: string,
  effects: ErasureEffects = { publish },
): Promise<ContactErasure> {
  const contact = await getContactFor(companyId, contactId);
  if (!confirms(contact.number, confirmNumber)) throw new ValidationError('confirmNumber', "Does not match the contact's number");
  const erased: ContactErasure = { contactId, tickets: 0, messages: 0, mediaObjects: 0, schedules: 0, listEntries: 0 };

  for (let round = 0; round < MAX_ROUNDS; round++) {
    const ticketIds = await contactTicketIds(companyId, contactId);
    if (!ticketIds.length) break;
    for (const ticketId of ticketIds) await eraseTicket(companyId, ticketId, effects, erased);
    // A link whose ticket was already gone (an earlier, interrupted run) names no data: drop it.
    await purgeContactPartition(
      companyId,
      contactId,
      ticketIds.map((id) => `TICKET#${pad(id)}`),
    );
  }

  for (const schedule of (await listSchedules(companyId)).filter((s) => s.contactId === contactId)) {
    if (schedule.mediaPath) await deleteMedia(schedule.mediaPath);
    await deleteSchedule(companyId, schedule.id);
    erased.schedules++;
  }

  // The number in the company's campaign lists is the person's too (a list holds name and number).
  // Its sends to those lists' campaigns hold them as well: they go before the entry, which names them.
  const campaigns = await listCampaigns(companyId);
  for (const list of await listContactLists(companyId)) {
    const item = await contactListItemByNumber(companyId, list.id, contact.number);
    if (item) {
      const sentBy = campaigns.filter((campaign) => campaign.contactListId === list.id).map((campaign) => campaign.id);
      await forgetRecipient(companyId, sentBy, item.id, contact.number);
      await deleteContactListItem(item).catch((error: unknown) => {
        if (!(error instanceof NotFoundError)) throw error;
      });
      erased.listEntries++;
    }
  }

  await deleteContactFor(companyId, contactId);
  const gone = (count: number) => ({ from: count, to: 0 });
  await recordAudit({
    action: 'contact.erase',
    targetType: 'contact',
    targetId: contactId,
    companyId,
    changes: {
      tickets: gone(erased.tickets),
      messages: gone(erased.messages),
      mediaObjects: gone(erased.mediaObjects),
      schedules: gone(erased.schedules),
      listEntries: gone(erased.listEntries),
    },
  });
  return erased;
}
