/**
 * How a user of the pool recovers a forgotten password, declared once for the deployed pool
 * (identity.ts) and the local Cognito proxy, which refuses what Cognito refuses under it.
 *
 * `admin_only` (issue 21): Cognito's own ForgotPassword and ConfirmForgotPassword are refused for
 * everyone, so no code of Cognito's exists that a client could confirm straight at the public app
 * client around our API. The only reset is POST /forgetpassword + POST /resetpasswords: our code,
 * mailed by us, stored hashed with its wrong-try counter, and AdminSetUserPassword on success
 * (functions/src/domain/auth/password-reset.ts). As CDK's `AccountRecovery.NONE`, and as Cognito lists
 * it (`AccountRecoverySetting.RecoveryMechanisms`).
 */
export const ACCOUNT_RECOVERY_MECHANISM = 'admin_only' as const;
export const ACCOUNT_RECOVERY_SETTING = { RecoveryMechanisms: [{ Name: ACCOUNT_RECOVERY_MECHANISM, Priority: 1 }] } as const;
