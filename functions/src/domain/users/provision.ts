/**
 * Creating a user touches two stores (Cognito for sign-in, the table for the record). The Cognito
 * user is created first and removed again if the record cannot be written, so a failure never
 * leaves a login without a user or a user without a login.
 */

import { cognitoUsers } from '#adapters/cognito-lazy';
import { ConflictError } from '#commons/errors';
import { logger } from '#commons/logger';
import type { AllTicket, Profile } from '#contracts/users';
import type { LimitClaim } from '#storage/plans/limits';
import * as users from '#storage/users/users';

export interface NewUser {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  super?: boolean;
  allTicket?: AllTicket;
  whatsappId?: number | null;
  queueIds?: number[];
  maxOpenTickets?: number;
  autoAssign?: boolean;
}

export async function provisionUser(
  companyId: number,
  input: NewUser,
  options: { now?: Date; claim?: LimitClaim } = {},
): Promise<users.UserRecord> {
  const now = options.now ?? new Date();
  const id = await users.newUserId(companyId);
  const { createCognitoUser, deleteCognitoUser } = await cognitoUsers();
  const sub = await createCognitoUser({ email: input.email, password: input.password, companyId, userId: id }).catch((error: unknown) => {
    // A sign-in with this e-mail exists already (another company's user): the same conflict as the table's guard.
    if ((error as { name?: string } | undefined)?.name === 'UsernameExistsException') throw new ConflictError('ERR_EMAIL_ALREADY_EXISTS');
    throw error;
  });
  const at = now.toISOString();
  const record: users.UserRecord = {
    id,
    companyId,
    name: input.name,
    email: input.email,
    profile: input.profile,
    super: input.super ?? false,
    allTicket: input.allTicket ?? 'desabled',
    whatsappId: input.whatsappId ?? null,
    queueIds: input.queueIds ?? [],
    maxOpenTickets: input.maxOpenTickets ?? 0,
    autoAssign: input.autoAssign ?? true,
    online: false,
    cognitoSub: sub,
    sessionIat: 0,
    createdAt: at,
    updatedAt: at,
  };
  try {
    await users.createUser(record, options.claim);
  } catch (error) {
    await undo('delete Cognito user', () => deleteCognitoUser(input.email));
    throw error;
  }
  return record;
}

/** Runs a compensating step; its own failure is logged, and the original error is what the caller sees. */
export async function undo(step: string, fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    logger.error(`Rollback step failed: ${step}`, { error: String(error) });
  }
}
