/**
 * The socket's view of users: who may connect (profile, queues, single-session `sessionIat`) and
 * their presence flag. Adapts the users entity so the socket session does not depend on its shape.
 */
import { NotFoundError } from '#commons/errors';
import { getUser, updateUser } from '#storage/users';
import type { SocketUser } from './socket-session.ts';

export async function getSocketUser(companyId: number, userId: number): Promise<SocketUser | undefined> {
  const user = await getUser(companyId, userId);
  if (!user) return undefined;
  return {
    id: user.id,
    companyId: user.companyId,
    profile: user.profile,
    super: user.super,
    queueIds: user.queueIds ?? [],
    allTicket: user.allTicket,
    sessionIat: user.sessionIat,
    sessionJtis: user.sessionJtis ?? null,
  };
}

export async function setPresence(companyId: number, userId: number, presence: { online: boolean; lastSeenAt: string }): Promise<void> {
  try {
    await updateUser(companyId, userId, presence);
  } catch (error) {
    // A user deleted while their socket was open: nothing to mark, and no reason to fail.
    if (!(error instanceof NotFoundError)) throw error;
  }
}
