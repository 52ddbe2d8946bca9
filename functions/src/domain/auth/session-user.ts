/**
 * The session user: the user as the API shows it (users/present, never the session secrets), with
 * its queues and the company's due date and settings (SPEC 7 "Auth and session").
 */
import type { SessionUser, UserQueue } from '#contracts/users';
import { loadQueueDirectory, resolveQueues } from '#domain/queues/directory';
import { listCompanySettings } from '#domain/settings/settings';
import { publicUser } from '#domain/users/present';
import type { CompanyRecord } from '#storage/companies/companies';
import type { UserRecord } from '#storage/users/users';

/** Queues of a user from its queueIds, with their names and colours. */
export const userQueues = async (companyId: number, queueIds: number[]): Promise<UserQueue[]> =>
  queueIds.length ? resolveQueues(queueIds, await loadQueueDirectory(companyId)) : [];

export async function sessionUser(record: UserRecord, company: CompanyRecord): Promise<SessionUser> {
  // The platform's secrets (the Asaas key) reach super users only, never a tenant's admin.
  const includeSecrets = Boolean(record.super);
  const [queues, settings] = await Promise.all([
    userQueues(record.companyId, record.queueIds ?? []),
    listCompanySettings(company.id, { includeSecrets }),
  ]);
  return { ...publicUser(record, queues), company: { id: company.id, name: company.name, dueDate: company.dueDate ?? null, settings } };
}
