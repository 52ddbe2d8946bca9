/**
 * POST /contact-lists/{id}/upload (SPEC 2 "List contacts: import spreadsheet"): the rows of an .xlsx
 * or .csv file, or JSON rows `{ contacts: [{ name, number, email }] }` a client read itself (the web
 * reads .xls this way), added to the list. The same reader as the contacts import
 * (domain/contacts/import.ts: header row naming the columns, at most MAX_IMPORT_ROWS rows), the
 * same rules as POST /contact-list-items per row: a bad row is reported with its line and field and
 * nothing is written for it; a number already in the list is counted as duplicated.
 *
 * Its own Lambda (fn 'contact-lists-import'), like the contacts import: the spreadsheet reader stays
 * out of the contact lists bundle. One `reload` on the list's channel when done, not an event per row.
 * The rows added are then checked against WhatsApp in batches (number-checks.ts): their
 * `isWhatsappValid` fills in, with another reload, as the session answers.
 */
import { ConflictError } from '#commons/errors';
import { type ContactListReloadEvent, channels } from '#contracts/channels';
import { type ContactListUploadResult, createContactListItemSchema } from '#contracts/contact-lists';
import { importedNumberSchema } from '#contracts/contact-requests';
import type { Identity } from '#domain/identity';
import { defaultEffects } from '#domain/messages/effects';
import { publishToCompany } from '#realtime/publisher';
import { createContactListItem, newContactListItemIds } from '#storage/contact-lists/items';
import { findContactList, presentContactList } from './contact-lists.ts';
import { checkNewNumbers, type NumberToCheck } from './number-checks.ts';

export { rowsFromFiles, rowsFromJson } from '#domain/contacts/import';

/** Rows written side by side: 1,000 rows in a few seconds without bursting the table. */
const WRITE_CONCURRENCY = 8;

type Row = Record<string, unknown>;

/** POST /contact-list-items' rules, with a sheet's phone cell read as the contacts import reads it. */
const importedItemSchema = createContactListItemSchema.extend({ number: importedNumberSchema });

export async function uploadToContactList(identity: Identity, contactListId: number, rows: Row[]): Promise<ContactListUploadResult> {
  const { companyId } = identity;
  await findContactList(companyId, contactListId);
  const result: ContactListUploadResult = { imported: 0, duplicated: 0, invalid: [] };
  const valid: { row: number; name: string; number: string; email: string }[] = [];
  for (const [index, row] of rows.entries()) {
    if (!row.name && !row.number) continue; // blank line
    const parsed = importedItemSchema.safeParse({ ...row, email: row.email || '', contactListId });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      result.invalid.push({ row: index + 2, field: String(issue?.path[0] ?? 'row'), message: issue?.message ?? 'Invalid' });
      continue;
    }
    valid.push({ row: index + 2, name: parsed.data.name, number: parsed.data.number, email: parsed.data.email });
  }
  const ids = valid.length ? await newContactListItemIds(companyId, valid.length) : [];
  const added: NumberToCheck[] = [];
  const at = new Date().toISOString();
  let next = 0;
  const worker = async () => {
    while (next < valid.length) {
      const i = next++;
      const row = valid[i] as (typeof valid)[number];
      try {
        await createContactListItem({
          id: ids[i] as number,
          companyId,
          contactListId,
          name: row.name,
          number: row.number,
          email: row.email,
          isWhatsappValid: null,
          createdAt: at,
          updatedAt: at,
        });
        result.imported++;
        added.push({ itemId: ids[i] as number, contactListId, number: row.number });
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        result.duplicated++;
      }
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, worker));
  result.invalid.sort((a, b) => a.row - b.row);
  const reload: ContactListReloadEvent = { action: 'reload', contactListId };
  await publishToCompany(companyId, channels.contactListItems(companyId, contactListId), reload);
  const list = await findContactList(companyId, contactListId).catch(() => undefined);
  if (list) await publishToCompany(companyId, channels.contactList(companyId), { action: 'update', record: presentContactList(list) });
  await checkNewNumbers(
    companyId,
    added.sort((a, b) => a.itemId - b.itemId),
    defaultEffects,
  );
  return result;
}
