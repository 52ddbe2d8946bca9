/**
 * The user as the API shows it: stored record minus session secrets, with queues and (for the
 * session) the company's due date and settings (SPEC 7 "Auth and session").
 */
import type { SessionUser, User, UserQueue } from '#contracts/users';
import type { CompanyRecord } from '#storage/companies';
import { listSettings } from '#storage/settings';
import type { UserRecord } from '#storage/users';

/**
 * Queues of a user from its queueIds. Queues are stored by a later issue; until then a user has
 * none to show, and this is the one place that will read them.
 */
export async function resolveQueues(_companyId: number, _queueIds: number[]): Promise<UserQueue[]> {
  return [];
}

/** Never leaks cognitoSub, sessionIat or the refresh token. */
export function publicUser(record: UserRecord, queues: UserQueue[]): User {
  return {
    id: record.id,
    name: record.name,
    email: record.email,
    profile: record.profile,
    super: Boolean(record.super),
    companyId: record.companyId,
    allTicket: record.allTicket,
    whatsappId: record.whatsappId ?? null,
    queueIds: record.queueIds ?? [],
    queues,
    online: Boolean(record.online),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

export async function sessionUser(record: UserRecord, company: CompanyRecord): Promise<SessionUser> {
  const [queues, settings] = await Promise.all([resolveQueues(record.companyId, record.queueIds ?? []), listSettings(company.id)]);
  return { ...publicUser(record, queues), company: { id: company.id, name: company.name, dueDate: company.dueDate ?? null, settings } };
}
