/** The API shape of a user: never the Cognito subject or session bookkeeping. */
import type { User, UserQueue } from '#contracts/users';
import { type QueueDirectory, resolveQueues } from '#domain/queues/directory';
import type { UserRecord } from '#storage/users/users';

/** Picks the fields the API shows, so no stored secret (cognitoSub, sessionIat, the refresh token) can leak. */
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
    maxOpenTickets: record.maxOpenTickets ?? 0,
    autoAssign: record.autoAssign ?? true,
    online: Boolean(record.online),
    presence: record.presence ?? (record.online ? 'online' : 'offline'),
    ...(record.lastSeenAt !== undefined ? { lastSeenAt: record.lastSeenAt } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The user in the users list and the user events; `directory`: the company's queues (queues/directory). */
export const toUser = (record: UserRecord, directory: QueueDirectory): User =>
  publicUser(record, resolveQueues(record.queueIds ?? [], directory));
