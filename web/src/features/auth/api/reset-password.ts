import { confirmResetPassword, resetPassword } from 'aws-amplify/auth';

/** Step 1 (SPEC 4 "Password reset"): Cognito emails a code (locally, cognito-local logs it). */
export const requestResetCode = (email: string) => resetPassword({ username: email });

/** Step 2: the code and the new password. */
export const confirmNewPassword = (email: string, code: string, newPassword: string) =>
  confirmResetPassword({ username: email, confirmationCode: code, newPassword });
