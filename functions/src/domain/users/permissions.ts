/**
 * Who may read or change which user (SPEC 6). Admins manage everyone of their company; a plain user
 * may read and edit only themselves, and never the fields behind the permission keys
 * `user-modal:editProfile` and `user-modal:editQueues` (profile, queues, allTicket, default connection),
 * nor how automatic assignment treats them (maxOpenTickets, autoAssign: issue 22).
 */
import { ForbiddenError } from '#commons/errors';
import type { UpdateUserInput } from '#contracts/users';

export interface Actor {
  userId: number;
  companyId: number;
  profile: string;
  super: boolean;
}

export const isAdmin = (actor: Pick<Actor, 'profile' | 'super'>): boolean => actor.profile === 'admin' || actor.super;

export function canReadUser(actor: Actor, targetUserId: number): boolean {
  return isAdmin(actor) || actor.userId === targetUserId;
}

/** Fields only an admin may change. */
export const adminOnlyUserFields = ['profile', 'queueIds', 'allTicket', 'whatsappId', 'maxOpenTickets', 'autoAssign'] as const;

interface CurrentUserFields {
  profile: string;
  queueIds: number[];
  allTicket: string;
  whatsappId: number | null;
  /** Absent on users stored before automatic assignment: 0 and true. */
  maxOpenTickets?: number;
  autoAssign?: boolean;
}

const sameIds = (a: number[], b: number[]): boolean => {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((id, i) => id === right[i]);
};

function unchanged(field: (typeof adminOnlyUserFields)[number], input: UpdateUserInput, current: CurrentUserFields): boolean {
  switch (field) {
    case 'queueIds':
      return input.queueIds === undefined || sameIds(input.queueIds, current.queueIds);
    case 'whatsappId':
      return input.whatsappId === undefined || (input.whatsappId ?? null) === current.whatsappId;
    case 'maxOpenTickets':
      return input.maxOpenTickets === undefined || input.maxOpenTickets === (current.maxOpenTickets ?? 0);
    case 'autoAssign':
      return input.autoAssign === undefined || input.autoAssign === (current.autoAssign ?? true);
    default:
      return input[field] === undefined || input[field] === current[field];
  }
}

/**
 * The patch an actor may apply to a target. The profile dialog of a plain user sends the whole form
 * back, so admin-only fields that are unchanged are dropped quietly; an attempt to change one is 403.
 */
export function permittedUserPatch(
  actor: Actor,
  targetUserId: number,
  input: UpdateUserInput,
  current: CurrentUserFields,
): UpdateUserInput {
  if (isAdmin(actor)) return input;
  if (actor.userId !== targetUserId) throw new ForbiddenError('ERR_NO_PERMISSION');
  for (const field of adminOnlyUserFields) {
    if (!unchanged(field, input, current)) throw new ForbiddenError('ERR_NO_PERMISSION', { field });
  }
  const { profile, queueIds, allTicket, whatsappId, maxOpenTickets, autoAssign, ...own } = input;
  return own;
}
