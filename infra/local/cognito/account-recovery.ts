/**
 * The pool's account recovery (infra/lib/account-recovery.ts) in front of cognito-local, which has no
 * such setting and would mail a code of its own and take it back on ConfirmForgotPassword. With
 * `admin_only`, Cognito refuses a user's self-service recovery outright: ForgotPassword answers
 * NotAuthorizedException "Contact administrator to reset password." (as moto, which models it, answers),
 * and ConfirmForgotPassword cannot confirm a code that was never issued, so it is refused the same way
 * before cognito-local could check one. Only the admin calls (AdminSetUserPassword) change a password.
 */
import { ACCOUNT_RECOVERY_MECHANISM } from '../../lib/account-recovery.ts';

/** Cognito's self-service recovery operations. */
const SELF_SERVICE_RECOVERY = new Set(['ForgotPassword', 'ConfirmForgotPassword']);

export const ADMIN_ONLY_RECOVERY_MESSAGE = 'Contact administrator to reset password.';

/** Cognito's answer to a recovery operation the pool does not allow; undefined for any other operation. */
export function accountRecoveryRefusal(
  target: string,
  mechanism: string = ACCOUNT_RECOVERY_MECHANISM,
): { status: number; body: Record<string, unknown> } | undefined {
  if (mechanism !== 'admin_only' || !SELF_SERVICE_RECOVERY.has(target)) return undefined;
  return { status: 400, body: { __type: 'NotAuthorizedException', message: ADMIN_ONLY_RECOVERY_MESSAGE } };
}
