/** The API shape of a user: never the Cognito subject or session bookkeeping. */
import type { User, UserQueue } from '#contracts/users';
import type { UserRecord } from '#storage/users';

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
    online: Boolean(record.online),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The user in the users list and the user events. */
export function toUser(record: UserRecord): User {
  // Queue names and colours live with the queues; until a queue lookup is wired in, the ids are
  // the source of truth and `queues` lists none.
  const user: User & { lastSeenAt?: string } = publicUser(record, []);
  // These answers have always carried the presence's lastSeenAt once a socket has set it (the session user does not).
  if (record.lastSeenAt !== undefined) user.lastSeenAt = record.lastSeenAt;
  return user;
}
