/**
 * Users of a company.
 *   user record   pk = C#<companyId>                     sk = USER#<padded id>
 *   email guard   pk = PLATFORM#USER_EMAIL#<lower email> sk = GUARD   { companyId, userId }
 * Emails are unique platform-wide because they are the Cognito username. The guard is written in
 * the same transaction as the user, and doubles as the strongly consistent email -> user lookup
 * (login and password reset read it right after a signup, when a GSI could still lag).
 * Passwords live only in Cognito; `queues` are resolved at read time from `queueIds`.
 */
import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ConflictError, NotFoundError } from '#commons/errors';
import type { Presence } from '#contracts/presence';
import { ENDED_SESSION_JTI } from '#contracts/session';
import type { User } from '#contracts/users';
import { getItemBatched } from '../batch-get.ts';
import { db, getItem, isConditionalCheckFailed, nextId, queryAll, table } from '../db.ts';
import type { LimitClaim } from '../plans/limits.ts';
import { REFERENCE_TTL_MS, readCache } from '../read-cache.ts';
import { PLATFORM_PK, pad, tenantPk } from '../table.ts';
import { putGuarded, type UniqueGuard, updateGuarded } from '../unique-guard.ts';

export type UserRecord = Omit<User, 'queues' | 'maxOpenTickets' | 'autoAssign' | 'presence'> & {
  /** Absent on a user stored before automatic assignment (issue 22): 0 (no limit) and true. */
  maxOpenTickets?: number;
  autoAssign?: boolean;
  cognitoSub: string;
  /** `iat` of the ID token that claimed the newest session; older tokens are refused. */
  sessionIat: number;
  /** Ids of the session's tokens minted in the sign-in's own second (sign-ins within one second differ by them). */
  sessionJtis?: string[] | null;
  /** `origin_jti` of the sign-in that claimed the session: tokens of any other sign-in are refused. */
  sessionOrigin?: string | null;
  /** `origin_jti` of the latest sign-ins a logout, a password change or a newer sign-in ended: they never claim again. */
  endedOrigins?: string[] | null;
  /** Refresh token of the newest session; null once logged out. */
  sessionRefreshToken?: string | null;
  lastSeenAt?: string;
  /** The presence last announced (domain/users/presence.ts): what a change is told against, never read as the truth. */
  presence?: Presence;
} & UserMfaFields;

/** The second factor (storage/users/mfa.ts): never in an API answer (domain/users/present picks fields). */
export interface UserMfaFields {
  mfaEnabled?: boolean;
  /** The TOTP secret, sealed (commons/secrets.ts), once enrolment succeeded. */
  mfaSecret?: string | null;
  /** A secret handed out by setup and not verified yet, sealed. */
  mfaPendingSecret?: string | null;
  /** The last TOTP time step accepted: no code of it or before it is accepted again. */
  mfaLastStep?: number | null;
  /** SHA-256 of each unused recovery code. */
  mfaRecoveryHashes?: string[] | null;
  /** `origin_jti` of the sign-in that passed the second factor (contracts/session.ts lacksSecondFactor). */
  mfaOrigin?: string | null;
}
export type UserPatch = Partial<Omit<UserRecord, 'id' | 'companyId' | 'createdAt'>>;

export const userKey = (companyId: number, userId: number) => ({ pk: tenantPk(companyId), sk: `USER#${pad(userId)}` });
const normaliseEmail = (email: string) => email.trim().toLowerCase();
const emailGuardKey = (email: string) => ({ pk: `${PLATFORM_PK}#USER_EMAIL#${normaliseEmail(email)}`, sk: 'GUARD' });

export const newUserId = (companyId: number): Promise<number> => nextId(tenantPk(companyId), 'USER');

export const getUser = (companyId: number, userId: number): Promise<UserRecord | undefined> =>
  getItem<UserRecord>(tenantPk(companyId), `USER#${pad(userId)}`);

/** getUser read with whatever else is asked for in this turn (batch-get.ts): strongly consistent, never cached. */
export const getUserBatched = (companyId: number, userId: number): Promise<UserRecord | undefined> =>
  getItemBatched<UserRecord>(userKey(companyId, userId));

export async function getUserByEmail(email: string): Promise<UserRecord | undefined> {
  const guard = await getItem<{ companyId: number; userId: number }>(emailGuardKey(email).pk, 'GUARD');
  return guard ? getUser(guard.companyId, guard.userId) : undefined;
}

const usersQuery = (companyId: number) => ({
  KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
  ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'USER#' },
  ConsistentRead: true,
});

export function listUsers(companyId: number): Promise<UserRecord[]> {
  return queryAll<UserRecord>(usersQuery(companyId));
}

export type UserName = Pick<UserRecord, 'id' | 'name'>;

/** Id and name only: what a list shows of an attendant, without keeping session fields in a cache. */
const listUserNames = (companyId: number): Promise<UserName[]> =>
  queryAll<UserName>({ ...usersQuery(companyId), ProjectionExpression: 'id, #name', ExpressionAttributeNames: { '#name': 'name' } });

const namesCache = readCache(listUserNames, { ttlMs: REFERENCE_TTL_MS });

/**
 * The company's users' names through this container's read cache (read-cache.ts): a page's
 * attendant names, up to 5 s stale. Never an access decision: those read the user itself.
 */
export const listUserNamesCached = (companyId: number): Promise<UserName[]> => namesCache.get(companyId);

/** For the plan's user limit. */
export async function countUsers(companyId: number): Promise<number> {
  let count = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const out = await db().send(
      new QueryCommand({
        TableName: table(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': tenantPk(companyId), ':prefix': 'USER#' },
        Select: 'COUNT',
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    count += out.Count ?? 0;
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return count;
}

const emailGuard = (companyId: number, userId: number): UniqueGuard<UserRecord> => ({
  field: 'email',
  keyOf: emailGuardKey,
  item: { entity: 'userEmailGuard', companyId, userId },
  conflict: () => new ConflictError('ERR_EMAIL_ALREADY_EXISTS'),
});

export async function createUser(record: UserRecord, claim?: LimitClaim): Promise<UserRecord> {
  const stored = { ...record, email: normaliseEmail(record.email) };
  await putGuarded({
    item: { ...userKey(record.companyId, record.id), entity: 'user', ...stored },
    guards: [emailGuard(record.companyId, record.id)],
    claim,
  });
  namesCache.forget(record.companyId);
  return stored;
}

export async function updateUser(companyId: number, userId: number, patch: UserPatch): Promise<UserRecord> {
  const current = await getUser(companyId, userId);
  if (!current) throw new NotFoundError('ERR_NO_USER_FOUND');
  const changes: UserPatch = { ...patch, updatedAt: patch.updatedAt ?? new Date().toISOString() };
  if (changes.email !== undefined) changes.email = normaliseEmail(changes.email);
  const updated = await updateGuarded({
    key: userKey(companyId, userId),
    current,
    changes,
    guards: [emailGuard(companyId, userId)],
    notFound: () => new NotFoundError('ERR_NO_USER_FOUND'),
  });
  // Only a rename changes the names (presence updates come on every socket's connect and disconnect).
  if (patch.name !== undefined && patch.name !== current.name) namesCache.forget(companyId);
  return updated;
}

/**
 * Records the user's presence when it differs from the one recorded: one conditional UpdateItem, true
 * when it changed (then the caller announces it), false when it was already so or the user is gone.
 * `online` and `lastSeenAt` (when presence last changed) follow; `updatedAt` does not, a presence is
 * no edit of the user.
 */
export async function recordPresence(companyId: number, userId: number, presence: Presence, at: string): Promise<boolean> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: userKey(companyId, userId),
        // `online` is a DynamoDB reserved word: every attribute goes by name.
        UpdateExpression: 'SET #presence = :presence, #online = :online, #lastSeenAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(#presence) OR #presence <> :presence)',
        ExpressionAttributeNames: { '#presence': 'presence', '#online': 'online', '#lastSeenAt': 'lastSeenAt' },
        ExpressionAttributeValues: { ':presence': presence, ':online': presence !== 'offline', ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** How many ended sign-ins a user record remembers: enough for the hour an ID token lives. */
export const ENDED_ORIGINS_KEPT = 20;

export interface SessionClaim {
  /** `iat` of the claiming token (or the end's second): sessionIat only moves forward. */
  sessionIat: number;
  refreshToken: string | null;
  sessionJti?: string | null;
  sessionOrigin?: string | null;
  /** Sign-ins (`origin_jti`) that end now besides the replaced session (a logout's own token's). */
  ended?: readonly string[];
}

/**
 * Sets sessionIat only if it moves forward, so two racing logins cannot leave the older one as
 * the session. The session it replaces joins `endedOrigins`, and a token of an ended sign-in never
 * claims again: `iat` has a one-second grain, so without them a token issued in the second of a
 * logout (or of a newer sign-in) could take the session back. Returns the previous refresh token
 * (to revoke), or `false` if a newer session won or the claiming sign-in was ended.
 */
export async function claimSession(
  companyId: number,
  userId: number,
  claim: SessionClaim,
): Promise<{ previousRefreshToken: string | null } | false> {
  const origin = claim.sessionOrigin ?? null;
  // Read, then write on condition that the session is still the one read (a racing claim retries).
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const current = await getUser(companyId, userId);
    if (!current || (current.sessionIat ?? 0) > claim.sessionIat) return false;
    if (origin && current.endedOrigins?.includes(origin)) return false;
    const replaced = current.sessionOrigin && current.sessionOrigin !== origin ? [current.sessionOrigin] : [];
    const endedOrigins = [...new Set([...(current.endedOrigins ?? []), ...replaced, ...(claim.ended ?? [])])]
      // The marker of an ended session is no sign-in (contracts/session.ts).
      .filter((ended) => ended && ended !== origin && ended !== ENDED_SESSION_JTI)
      .slice(-ENDED_ORIGINS_KEPT);
    try {
      const out = await db().send(
        new UpdateCommand({
          TableName: table(),
          Key: userKey(companyId, userId),
          UpdateExpression:
            'SET sessionIat = :iat, sessionJtis = :jtis, sessionOrigin = :origin, endedOrigins = :ended, sessionRefreshToken = :rt, updatedAt = :now',
          ConditionExpression: `attribute_exists(pk) AND (attribute_not_exists(sessionIat) OR sessionIat <= :iat) AND ${
            current.sessionOrigin
              ? 'sessionOrigin = :previous'
              : '(attribute_not_exists(sessionOrigin) OR attribute_type(sessionOrigin, :null))'
          }`,
          ExpressionAttributeValues: {
            ':iat': claim.sessionIat,
            ':jtis': claim.sessionJti ? [claim.sessionJti] : null,
            ':origin': origin,
            ':ended': endedOrigins,
            ':rt': claim.refreshToken,
            ':now': new Date().toISOString(),
            ...(current.sessionOrigin ? { ':previous': current.sessionOrigin } : { ':null': 'NULL' }),
          },
          ReturnValues: 'ALL_OLD',
        }),
      );
      const previous = out.Attributes?.sessionRefreshToken;
      return { previousRefreshToken: typeof previous === 'string' && previous !== claim.refreshToken ? previous : null };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
  return false;
}

/**
 * A token refreshed within the sign-in's own second joins the session's accepted ids, so both it
 * and the sign-in token stay valid. Only for the session's current refresh token; a no-op otherwise.
 */
export async function addSessionToken(
  companyId: number,
  userId: number,
  sessionIat: number,
  refreshToken: string,
  jti: string,
): Promise<void> {
  try {
    await db().send(
      new UpdateCommand({
        TableName: table(),
        Key: userKey(companyId, userId),
        UpdateExpression: 'SET sessionJtis = list_append(sessionJtis, :jti)',
        ConditionExpression: 'sessionIat = :iat AND sessionRefreshToken = :rt AND attribute_type(sessionJtis, :list)',
        ExpressionAttributeValues: { ':jti': [jti], ':iat': sessionIat, ':rt': refreshToken, ':list': 'L' },
      }),
    );
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
  }
}

export async function deleteUser(companyId: number, userId: number): Promise<void> {
  const current = await getUser(companyId, userId);
  if (!current) throw new NotFoundError('ERR_NO_USER_FOUND');
  await db().send(
    new TransactWriteCommand({
      TransactItems: [
        { Delete: { TableName: table(), Key: userKey(companyId, userId) } },
        { Delete: { TableName: table(), Key: emailGuardKey(current.email) } },
      ],
    }),
  );
  namesCache.forget(companyId);
}
