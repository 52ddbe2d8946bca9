/** The API shape of a user: never the Cognito subject or session bookkeeping. */
import type { User } from '#contracts/users';
import type { UserRecord } from '#storage/users';

export function toUser(record: UserRecord): User {
  const { cognitoSub, sessionIat, sessionJtis, sessionRefreshToken, ...user } = record as UserRecord & {
    cognitoSub?: unknown;
    sessionIat?: unknown;
    sessionJtis?: unknown;
    sessionRefreshToken?: unknown;
  };
  // Queue names and colours live with the queues; until a queue lookup is wired in, the ids are
  // the source of truth and `queues` lists none.
  return { ...user, queueIds: user.queueIds ?? [], queues: [] } as User;
}
