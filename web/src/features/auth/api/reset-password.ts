import { api } from '../../../lib/api-client.ts';

/**
 * Step 1 (SPEC 4 "Password reset", SPEC 7: the backend's route): the API mails a code of its own (SES;
 * locally the mail sink logs it), answering every address alike.
 */
export const requestResetCode = (email: string) =>
  api<unknown>(`/forgetpassword/${encodeURIComponent(email)}`, { method: 'POST', anonymous: true });

/**
 * Step 2: the code and the new password, through the API and not straight to Cognito, so wrong codes
 * count against the address and the email (ERR_INVALID_RESET_CODE, 429 ERR_TOO_MANY_ATTEMPTS) and
 * the user's other sessions end.
 */
export const confirmNewPassword = (email: string, code: string, newPassword: string) =>
  api<unknown>(`/resetpasswords/${[email, code, newPassword].map(encodeURIComponent).join('/')}`, { method: 'POST', anonymous: true });
