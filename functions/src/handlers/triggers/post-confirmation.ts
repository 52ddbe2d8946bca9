/**
 * Cognito's post-confirmation trigger (infra/lib/identity.ts; the local stack's cognito-local calls it
 * the same way). After a reset by Cognito's own code, `PostConfirmation_ConfirmForgotPassword`, every
 * session of the user ends, whichever client confirmed the code, so a phone signed in with the old
 * password does not keep working. Kept as a second line only: the pool's recovery is admin-only now
 * (infra/lib/account-recovery.ts), so Cognito issues no such code and our API resets with its own
 * (domain/auth/password-reset.ts), but a pool whose recovery is ever switched back is still covered.
 * Cognito expects the event back.
 */
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { logger } from '#commons/logger';
import { endSessionsOfConfirmedPassword } from '#domain/auth/session';

export async function handler(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  if (event.triggerSource !== 'PostConfirmation_ConfirmForgotPassword') return event;
  // The pool names this function, so the function's configuration cannot name the pool (a cycle,
  // infra/lib/identity.ts attachTrigger): the event says which pool and app client called.
  process.env.USER_POOL_ID ??= event.userPoolId;
  if (event.callerContext.clientId) process.env.USER_POOL_CLIENT_ID ??= event.callerContext.clientId;
  const attributes = event.request.userAttributes;
  const ended = await endSessionsOfConfirmedPassword({
    companyId: Number(attributes['custom:companyId']),
    userId: Number(attributes['custom:userId']),
    sub: attributes.sub ?? '',
  });
  if (!ended) logger.warn('password reset of a Cognito user with no user record', { userName: event.userName });
  return event;
}
