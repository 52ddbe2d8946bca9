/**
 * Building a company's export (data-export.ts says what it holds and why it is queued): run by the
 * `company-exports` consumer. Marks the job running, then done with the zip's key, or failed (and
 * throws, so the queue retries it); a job already done is not built again.
 */
import { zipSync } from 'fflate';
import { superOnlySettingKeys } from '#contracts/settings';
import { putMedia } from '#domain/media/bucket';
import { getCompany } from '#storage/companies/companies';
import { getExportJob, setExportJobStatus } from '#storage/company-exports/jobs';
import { listContactsPage } from '#storage/contacts/pages';
import { listShardsOf } from '#storage/list-shards';
import { listMessagesPage, type MessageRecord } from '#storage/messages/messages';
import { ticketsUpdatedSince } from '#storage/retention/old-messages';
import { listSettings } from '#storage/settings';
import { listTicketNotes } from '#storage/tickets/notes';
import type { TicketRecord } from '#storage/tickets/record';
import { listUsers } from '#storage/users/users';

const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value, null, 2));

async function ticketMessages(ticket: TicketRecord): Promise<MessageRecord[]> {
  const out: MessageRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listMessagesPage(ticket.companyId, ticket.id, { limit: 500, cursor });
    out.push(...page.messages);
    cursor = page.cursor;
  } while (cursor);
  return out.reverse();
}

/** Builds and stores the zip; marks the job done, or failed and throws for a retry. */
export async function runCompanyExport(companyId: number, jobId: string): Promise<void> {
  const job = await getExportJob(companyId, jobId);
  if (!job || job.status === 'done') return;
  await setExportJobStatus(companyId, jobId, 'running');
  try {
    const company = await getCompany(companyId);
    const files: Record<string, Uint8Array> = {};
    files['company.json'] = json({ id: companyId, name: company?.name ?? '', exportedAt: new Date().toISOString() });
    files['settings.json'] = json((await listSettings(companyId)).filter((setting) => !superOnlySettingKeys.has(setting.key)));
    files['users.json'] = json(
      (await listUsers(companyId)).map((user) => ({
        id: user.id,
        name: user.name,
        email: user.email,
        profile: user.profile,
        super: user.super,
        allTicket: user.allTicket,
        whatsappId: user.whatsappId,
        queueIds: user.queueIds,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      })),
    );
    const contacts = [];
    let cursor: string | undefined;
    do {
      const page = await listContactsPage(companyId, { limit: 1000, list: 'export', cursor });
      contacts.push(...page.contacts);
      cursor = page.cursor;
    } while (cursor);
    files['contacts.json'] = json(contacts);
    const tickets = [];
    for await (const ticket of ticketsUpdatedSince(companyId, listShardsOf(company))) {
      tickets.push({ ...ticket, notes: await listTicketNotes(companyId, ticket.id) });
      files[`messages/ticket-${ticket.id}.json`] = json(await ticketMessages(ticket));
    }
    files['tickets.json'] = json(tickets.sort((a, b) => a.id - b.id));
    const key = `${companyId}/exports/${jobId}/conversa-export-${companyId}.zip`;
    await putMedia(key, Buffer.from(zipSync(files, { level: 6 })), 'application/zip');
    await setExportJobStatus(companyId, jobId, 'done', { key });
  } catch (error) {
    await setExportJobStatus(companyId, jobId, 'failed', { error: (error as Error).message.slice(0, 200) });
    throw error;
  }
}
