/**
 * Users of a company (SPEC 3 "User", 6, 7). The company is always the caller's (from the token);
 * a user id of another company is "not found", never revealed or touched.
 */

import { cognitoUsers } from '#adapters/cognito-lazy';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '#commons/errors';
import { MASKED } from '#contracts/audit-mask';
import { channels } from '#contracts/channels';
import type { CreateUserInput, UpdateUserInput, User } from '#contracts/users';
import { changesOf, recordAudit } from '#domain/audit/record';
import { endUserSessions } from '#domain/auth/session';
import { publishToCompany } from '#domain/companies/publish';
import { createWithinPlanLimit } from '#domain/plans/limits';
import { loadQueueDirectory } from '#domain/queues/directory';
import { routeForUserSafely } from '#domain/tickets/auto-assign';
import { closeUserSockets, refreshUserSockets } from '#realtime/user-directory';
import * as users from '#storage/users/users';
import { byName, matchesSearch, pageOf } from './paging.ts';
import { type Actor, canReadUser, isAdmin, permittedUserPatch } from './permissions.ts';
import { readPresence } from './presence.ts';
import { toUser } from './present.ts';
import { provisionUser, undo } from './provision.ts';

/** What the trail records of a user: who they are, their role and their queues (never Cognito or session fields). */
const AUDITED_FIELDS = ['name', 'email', 'profile', 'allTicket', 'whatsappId', 'queueIds', 'maxOpenTickets', 'autoAssign'] as const;
const audited = (record: users.UserRecord): Record<string, unknown> => ({ ...record });

async function findInCompany(companyId: number, userId: number): Promise<users.UserRecord> {
  const record = await users.getUser(companyId, userId);
  if (!record || record.companyId !== companyId) throw new NotFoundError('ERR_NO_USER_FOUND');
  return record;
}

/**
 * A user's queues must be queues of the company: an id of another company's queue (or of none) is
 * refused before anything is written. Ids the user already holds are left alone, so editing a user
 * whose queue was deleted since does not fail on it.
 */
async function assertCompanyQueues(
  companyId: number,
  queueIds: readonly number[] | undefined,
  held: readonly number[] = [],
): Promise<void> {
  const added = (queueIds ?? []).filter((id) => !held.includes(id));
  if (!added.length) return;
  const directory = await loadQueueDirectory(companyId);
  if (added.some((id) => !directory.has(id))) throw new ValidationError('queueIds', 'Queue not found');
}

export async function listUsersPage(
  companyId: number,
  query: { searchParam: string; pageNumber: number },
): Promise<{ users: User[]; hasMore: boolean }> {
  const matching = (await users.listUsers(companyId)).filter((u) => matchesSearch(query.searchParam, [u.name, u.email])).sort(byName);
  const page = pageOf(matching, query.pageNumber);
  const [directory, presence] = await Promise.all([
    loadQueueDirectory(companyId),
    readPresence(
      companyId,
      page.items.map((record) => record.id),
    ),
  ]);
  // Each row's presence from its sockets, not from the flag last recorded (presence.ts).
  const withPresence = (user: User): User => {
    const now = presence.get(user.id) ?? 'offline';
    return { ...user, presence: now, online: now !== 'offline' };
  };
  return { users: page.items.map((record) => withPresence(toUser(record, directory))), hasMore: page.hasMore };
}

/** GET /users/list: the names every attendant needs (transfer dialog, filters). */
/** GET /users/list: id and name (SPEC 7), and queueIds so a transfer can offer the chosen queue's users at once. */
export async function listUserNames(companyId: number): Promise<Array<{ id: number; name: string; queueIds: number[] }>> {
  return (await users.listUsers(companyId)).sort(byName).map(({ id, name, queueIds }) => ({ id, name, queueIds }));
}

export async function getUserFor(actor: Actor, userId: number): Promise<User> {
  const record = await findInCompany(actor.companyId, userId);
  if (!canReadUser(actor, userId)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return toUser(record, await loadQueueDirectory(actor.companyId));
}

export async function createCompanyUser(companyId: number, usersLimit: number, input: CreateUserInput): Promise<User> {
  await assertCompanyQueues(companyId, input.queueIds);
  const record = await createWithinPlanLimit({
    companyId,
    kind: 'users',
    limit: usersLimit,
    code: 'ERR_PLAN_LIMIT_USERS',
    count: () => users.countUsers(companyId),
    create: async (claim) => {
      // Checked before Cognito is touched so the common case fails without a create-then-undo.
      if (await users.getUserByEmail(input.email)) throw new ConflictError('ERR_EMAIL_ALREADY_EXISTS');
      return provisionUser(companyId, input, { claim });
    },
  });
  await recordAudit({
    action: 'user.create',
    targetType: 'user',
    targetId: record.id,
    changes: { ...changesOf(null, audited(record), AUDITED_FIELDS), password: { from: null, to: MASKED } },
  });
  const user = toUser(record, await loadQueueDirectory(companyId));
  await publishToCompany(companyId, channels.user(companyId), { action: 'create', user });
  return user;
}

export async function updateUserFor(actor: Actor, userId: number, input: UpdateUserInput, now = new Date()): Promise<User> {
  const current = await findInCompany(actor.companyId, userId);
  const { password, ...patch } = permittedUserPatch(actor, userId, input, current);
  await assertCompanyQueues(actor.companyId, patch.queueIds, current.queueIds);
  const emailChanged = patch.email !== undefined && patch.email !== current.email;
  // The storage's e-mail guard refuses a taken address (409) before Cognito is touched.
  const updated = await users.updateUser(actor.companyId, userId, { ...patch, updatedAt: now.toISOString() });
  const { setCognitoPassword, updateCognitoEmail } = await cognitoUsers();
  try {
    if (emailChanged) await updateCognitoEmail(current.email, patch.email as string);
    if (password) await setCognitoPassword(patch.email ?? current.email, password);
  } catch (error) {
    // Keep the record and the sign-in identity telling the same story.
    await undo('restore user record', () =>
      users.updateUser(actor.companyId, userId, {
        name: current.name,
        email: current.email,
        profile: current.profile,
        allTicket: current.allTicket,
        whatsappId: current.whatsappId,
        queueIds: current.queueIds,
        maxOpenTickets: current.maxOpenTickets,
        autoAssign: current.autoAssign,
        updatedAt: current.updatedAt,
      }),
    );
    if (emailChanged && password) await undo('restore Cognito email', () => updateCognitoEmail(patch.email as string, current.email));
    throw error;
  }
  await recordAudit({
    action: 'user.update',
    targetType: 'user',
    targetId: userId,
    changes: {
      ...changesOf(audited(current), audited(updated), AUDITED_FIELDS),
      ...(password ? { password: { from: MASKED, to: MASKED } } : {}),
    },
  });
  // A new password ends every session of the user: old tokens, refresh tokens and open sockets.
  if (password) await endUserSessions(actor.companyId, userId);
  const user = toUser(updated, await loadQueueDirectory(actor.companyId));
  // What this user's open sockets may see (queues, allTicket, profile) follows the edit at once.
  if (patch.queueIds !== undefined || patch.allTicket !== undefined || patch.profile !== undefined)
    await refreshUserSockets(actor.companyId, updated);
  await publishToCompany(actor.companyId, channels.user(actor.companyId), { action: 'update', user });
  // Room for more (a higher limit, automatic assignment back on, a new queue): waiting tickets come to them (issue 22 §2).
  if (patch.maxOpenTickets !== undefined || patch.autoAssign !== undefined || patch.queueIds !== undefined)
    await routeForUserSafely(actor.companyId, userId);
  return user;
}

export async function deleteUserFor(actor: Actor, userId: number): Promise<void> {
  if (!isAdmin(actor)) throw new ForbiddenError('ERR_NO_PERMISSION');
  const current = await findInCompany(actor.companyId, userId);
  if (userId === actor.userId) throw new ForbiddenError('ERR_NO_PERMISSION');
  await users.deleteUser(actor.companyId, userId);
  try {
    await (await cognitoUsers()).deleteCognitoUser(current.email);
  } catch (error) {
    await undo('restore user record', () => users.createUser(current));
    throw error;
  }
  await recordAudit({
    action: 'user.delete',
    targetType: 'user',
    targetId: userId,
    changes: changesOf(audited(current), null, AUDITED_FIELDS),
  });
  await closeUserSockets(actor.companyId, userId);
  await publishToCompany(actor.companyId, channels.user(actor.companyId), { action: 'delete', userId });
}
